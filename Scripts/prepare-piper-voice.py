#!/usr/bin/env python3
"""Prepares a Piper voice for Lectern's Piper engine, which runs it through onnxruntime's C API.

A Piper voice is an ONNX model (`NAME.onnx`) and its configuration (`NAME.onnx.json`). The prepared
model, changed with the `onnx` package, differs from the original in two ways:
  - its duration predictor's per-phoneme output (the ceiled durations in frames, which the graph
    computes and sums into the audio's length but does not output) is a graph output named
    `durations`, so that Lectern times every word exactly; a graph where it cannot be found is
    prepared without it (said so), and Lectern estimates its word times as before;
  - its random nodes have a fixed seed (see below).

Writes OUT/NAME.onnx and OUT/NAME.onnx.json (a copy of the configuration). The original files are
not changed. Run it on any Piper voice:

    PYTHONPATH=.piper python3 Scripts/prepare-piper-voice.py VOICE.onnx [VOICE.onnx.json] --out DIR
"""

import argparse
import json
import os
import shutil
import sys
import tempfile


def fail(message):
    print(f"prepare-piper-voice: {message}", file=sys.stderr)
    sys.exit(1)


def load_config(path):
    try:
        with open(path, encoding="utf-8") as f:
            config = json.load(f)
    except OSError as e:
        fail(f"cannot read {path}: {e.strerror}")
    except json.JSONDecodeError as e:
        fail(f"{path}:{e.lineno}: not JSON: {e.msg}")
    for key in ("phoneme_id_map", "audio", "espeak"):
        if key not in config:
            fail(f"{path}: no \"{key}\" key: is this a Piper voice's .onnx.json?")
    if config.get("phoneme_type", "espeak") != "espeak":
        fail(f"{path}: phoneme_type is \"{config['phoneme_type']}\"; Lectern phonemizes with espeak-ng only")
    return config


def check_phoneme_map(config, path):
    for symbol, ids in config["phoneme_id_map"].items():
        if len(symbol) != 1 or not ids:
            fail(f"{path}: phoneme_id_map entry {symbol!r}: expected one character with at least one id")
    for symbol in ("_", "^", "$"):
        if symbol not in config["phoneme_id_map"]:
            fail(f"{path}: phoneme_id_map has no {symbol!r} (Piper's pad, start and end symbols)")


DURATIONS = "durations"


def find_durations(graph):
    """The output of the duration predictor's Ceil: the Ceil node whose output the graph sums
    (ReduceSum: the audio's length in frames) and accumulates (CumSum: where each phoneme's frames
    start), directly or through shape-keeping nodes. None when there is no such node, or several."""
    consumers = {}
    for node in graph.node:
        for name in node.input:
            consumers.setdefault(name, []).append(node)
    passing = {"Cast", "Mul", "Clip", "Max", "Min", "Unsqueeze", "Squeeze", "Identity"}

    def reaches(name, wanted, depth=0):
        for node in consumers.get(name, []):
            if node.op_type == wanted:
                return True
            if depth < 3 and node.op_type in passing and any(reaches(o, wanted, depth + 1) for o in node.output):
                return True
        return False

    found = [node.output[0] for node in graph.node
             if node.op_type == "Ceil" and reaches(node.output[0], "ReduceSum") and reaches(node.output[0], "CumSum")]
    return found[0] if len(found) == 1 else None


def add_durations(model, onnx):
    """Adds the `durations` output (float, [batch, 1, phonemes]); returns the tensor it comes from, or None."""
    graph = model.graph
    if any(o.name == DURATIONS for o in graph.output):
        return DURATIONS
    source = find_durations(graph)
    if source is None:
        return None
    graph.node.append(onnx.helper.make_node("Identity", [source], [DURATIONS], name="lectern_durations"))
    graph.output.append(onnx.helper.make_tensor_value_info(DURATIONS, onnx.TensorProto.FLOAT, ["batch_size", 1, "phonemes"]))
    return source


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("model", help="the Piper voice's .onnx file")
    parser.add_argument("config", nargs="?", help="its .onnx.json (default: MODEL.json)")
    parser.add_argument("--out", required=True, help="the folder to write the prepared voice into")
    args = parser.parse_args()
    config_path = args.config or args.model + ".json"
    if not os.path.isfile(args.model):
        fail(f"cannot read {args.model}: no such file")
    config = load_config(config_path)
    try:
        import onnx
    except ImportError:
        fail("the Python package `onnx` is missing (run `make piper`, or pip install onnx)")

    name = os.path.basename(args.model)
    name = name[: -len(".onnx")] if name.endswith(".onnx") else name
    os.makedirs(args.out, exist_ok=True)
    check_phoneme_map(config, config_path)

    model = onnx.load(args.model)
    durations = add_durations(model, onnx)

    # Piper's graph draws its sampling noise with RandomNormalLike nodes that carry no seed, so
    # onnxruntime seeds them at random and no two syntheses are the same. A fixed seed makes the
    # noise depend only on what a model session has synthesized before (with the noise off, as
    # Lectern runs by default, it is multiplied by 0 and does not matter).
    seeded = 0
    for node in model.graph.node:
        if node.op_type in ("RandomNormalLike", "RandomNormal", "RandomUniformLike", "RandomUniform"):
            kept = [a for a in node.attribute if a.name != "seed"]
            del node.attribute[:]
            node.attribute.extend(kept)
            node.attribute.append(onnx.helper.make_attribute("seed", 1.0))
            seeded += 1

    # Written under temporary names and renamed, so a half-written voice is never taken for a whole one.
    targets = {
        "model": os.path.join(args.out, name + ".onnx"),
        "config": os.path.join(args.out, name + ".onnx.json"),
    }
    with tempfile.TemporaryDirectory(dir=args.out) as scratch:
        onnx.save(model, os.path.join(scratch, "model"))
        shutil.copyfile(config_path, os.path.join(scratch, "config"))
        for kind in ("config", "model"):
            os.replace(os.path.join(scratch, kind), targets[kind])
        # A tokens file an earlier version of this script wrote for sherpa-onnx is no longer used.
        stale = os.path.join(args.out, name + ".tokens.txt")
        if os.path.exists(stale):
            os.remove(stale)
    speakers = config.get("num_speakers", 1)
    print(f"prepared {name}: {targets['model']} ({seeded} random nodes seeded, {config['audio']['sample_rate']} Hz, "
          f"{speakers} speaker{'s' if speakers != 1 else ''}, espeak-ng voice {config['espeak']['voice']}, "
          + (f"durations output from {durations})" if durations else "no durations output)"))
    if durations is None:
        print(f"prepare-piper-voice: {args.model}: no duration predictor output found (no single Ceil node whose output is summed "
              "and accumulated); prepared without it: Lectern will estimate this voice's word times", file=sys.stderr)


if __name__ == "__main__":
    main()
