#!/usr/bin/env python3
"""Prepares a Piper voice for sherpa-onnx's C API, which Lectern's Piper engine speaks through.

A Piper voice is an ONNX model (`NAME.onnx`) and its configuration (`NAME.onnx.json`). sherpa-onnx
needs two more things, both derived from them:
  - a tokens file, one `symbol id` line per entry of the configuration's `phoneme_id_map`;
  - the model with sherpa-onnx's metadata (model_type=vits, comment=piper, sample_rate, n_speakers,
    language, voice, has_espeak=1), added with the `onnx` package.

Writes OUT/NAME.onnx (a copy with the metadata), OUT/NAME.onnx.json (a copy of the configuration)
and OUT/NAME.tokens.txt. The original files are not changed. Run it on any Piper voice:

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


def tokens_lines(config, path):
    lines = []
    for symbol, ids in config["phoneme_id_map"].items():
        if len(symbol) != 1 or not ids:
            fail(f"{path}: phoneme_id_map entry {symbol!r}: expected one character with at least one id")
        if symbol in "\n\r":
            continue  # a line break cannot be written as a token line, and espeak-ng never yields one
        lines.append(f"{symbol} {ids[0]}\n")
    return lines


def metadata(config):
    language = config.get("language", {})
    return {
        "model_type": "vits",
        "comment": "piper",
        "language": language.get("name_english", language.get("code", "")),
        "voice": config["espeak"]["voice"],
        "has_espeak": 1,
        "n_speakers": config.get("num_speakers", 1),
        "sample_rate": config["audio"]["sample_rate"],
    }


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
    lines = tokens_lines(config, config_path)

    model = onnx.load(args.model)
    wanted = metadata(config)
    kept = [p for p in model.metadata_props if p.key not in wanted]
    del model.metadata_props[:]
    model.metadata_props.extend(kept)
    for key, value in wanted.items():
        entry = model.metadata_props.add()
        entry.key = key
        entry.value = str(value)

    # Piper's graph draws its sampling noise with RandomNormalLike nodes that carry no seed, so
    # onnxruntime seeds them at random and no two syntheses are the same. A fixed seed makes the
    # noise depend only on what a model session has synthesized before; Lectern opens a new
    # session for each chunk, so a chunk's audio is a function of its content.
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
        "tokens": os.path.join(args.out, name + ".tokens.txt"),
    }
    with tempfile.TemporaryDirectory(dir=args.out) as scratch:
        onnx.save(model, os.path.join(scratch, "model"))
        shutil.copyfile(config_path, os.path.join(scratch, "config"))
        with open(os.path.join(scratch, "tokens"), "w", encoding="utf-8") as f:
            f.writelines(lines)
        for kind in ("tokens", "config", "model"):
            os.replace(os.path.join(scratch, kind), targets[kind])
    print(f"prepared {name}: {targets['model']} ({len(lines)} tokens, {seeded} random nodes seeded, {config['audio']['sample_rate']} Hz, "
          f"espeak-ng voice {config['espeak']['voice']})")


if __name__ == "__main__":
    main()
