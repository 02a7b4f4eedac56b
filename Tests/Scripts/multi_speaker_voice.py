#!/usr/bin/env python3
"""Makes a small multi-speaker Piper voice for the tests from a prepared single-speaker one.

No multi-speaker Piper voice is packaged on PyPI, so the tests build one: a copy of a prepared
voice (`VOICE.onnx`, `VOICE.onnx.json`) whose graph takes Piper's speaker input `sid` (int64 [1])
the way multi-speaker Piper models do, and whose speakers differ in pace: speaker k speaks with
the length scale × (1 + k/4). The configuration gets `num_speakers` 3 and a `speaker_id_map`.
What this tests is real: the speaker id the manifest names reaches the model's `sid` and changes
its audio, and the durations still give exact word times.

    PYTHONPATH=.piper python3 Tests/Scripts/multi_speaker_voice.py VOICE.onnx OUT_DIR NAME
"""

import json
import os
import sys

import onnx
from onnx import TensorProto, helper


def main():
    model_path, out, name = sys.argv[1], sys.argv[2], sys.argv[3]
    model = onnx.load(model_path)
    graph = model.graph
    if any(i.name == "sid" for i in graph.input):
        sys.exit(f"{model_path} already takes a speaker")
    # An exporter may have left a weight named `sid` (the phoneme embedding): renamed out of the way.
    for initializer in graph.initializer:
        if initializer.name == "sid":
            initializer.name = "lectern_weight_sid"
            for node in graph.node:
                for i, used in enumerate(node.input):
                    if used == "sid":
                        node.input[i] = "lectern_weight_sid"
    graph.input.append(helper.make_tensor_value_info("sid", TensorProto.INT64, [1]))
    # scales' = scales × [1, 1 + sid/4, 1], used wherever the graph used scales.
    nodes = [
        helper.make_node("Cast", ["sid"], ["lectern_sid_float"], to=TensorProto.FLOAT),
        helper.make_node("Constant", [], ["lectern_quarter"], value=helper.make_tensor("q", TensorProto.FLOAT, [1], [0.25])),
        helper.make_node("Constant", [], ["lectern_one"], value=helper.make_tensor("o", TensorProto.FLOAT, [1], [1.0])),
        helper.make_node("Mul", ["lectern_sid_float", "lectern_quarter"], ["lectern_sid_quarter"]),
        helper.make_node("Add", ["lectern_sid_quarter", "lectern_one"], ["lectern_pace"]),
        helper.make_node("Concat", ["lectern_one", "lectern_pace", "lectern_one"], ["lectern_speaker_scales"], axis=0),
        helper.make_node("Mul", ["scales", "lectern_speaker_scales"], ["lectern_scales"]),
    ]
    for node in graph.node:
        for i, name_in in enumerate(node.input):
            if name_in == "scales":
                node.input[i] = "lectern_scales"
    for n in reversed(nodes):
        graph.node.insert(0, n)
    os.makedirs(out, exist_ok=True)
    onnx.save(model, os.path.join(out, name + ".onnx"))
    with open(model_path + ".json", encoding="utf-8") as f:
        config = json.load(f)
    config["num_speakers"] = 3
    config["speaker_id_map"] = {"brisk": 0, "steady": 1, "slow": 2}
    with open(os.path.join(out, name + ".onnx.json"), "w", encoding="utf-8") as f:
        json.dump(config, f, ensure_ascii=False, indent=2)


if __name__ == "__main__":
    main()
