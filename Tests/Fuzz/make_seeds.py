#!/usr/bin/env python3
"""Seeds for the fuzz targets that come from a model's CUSTOM operators (run by run.sh).

Usage: make_seeds.py DUMP_SCHEMA BUILD_SCHEMA MODEL.tflite FLEX_DIR TFLITE_DIR

Dumps MODEL with flatc (DUMP_SCHEMA), then for every CUSTOM operator writes
- its custom_options bytes (a FlexBuffers map) into FLEX_DIR, the seeds of fuzz-flexbuffers;
- a model of that one operator (its code, version, options and the shapes of its tensors, every input a graph
  input) built with flatc (BUILD_SCHEMA) into TFLITE_DIR, small seeds that reach the custom operators' lowering
  in fuzz-tflite.
Identical operators give one seed.
"""
import json
import os
import subprocess
import sys
import tempfile


def main():
    dump_schema, build_schema, model_path, flex_dir, tflite_dir = sys.argv[1:6]
    with tempfile.TemporaryDirectory() as work:
        subprocess.run(["flatc", "--json", "--raw-binary", "--strict-json", "-o", work, dump_schema, "--",
                        model_path], check=True)
        name = os.path.splitext(os.path.basename(model_path))[0]
        with open(os.path.join(work, name + ".json")) as f:
            model = json.load(f)
        seen = set()
        for graph in model["subgraphs"]:
            tensors = graph["tensors"]
            for op in graph.get("operators", []):
                code = model["operator_codes"][op.get("opcode_index", 0)]
                if not code.get("custom_code"):
                    continue
                options = op.get("custom_options")
                key = (code["custom_code"], json.dumps(options),
                       json.dumps([tensors[i].get("shape", []) for i in op["inputs"] + op["outputs"]]))
                if key in seen:
                    continue
                seen.add(key)
                stem = "%s-%d" % (code["custom_code"], len(seen))
                if options:
                    with open(os.path.join(flex_dir, stem + ".flex"), "wb") as f:
                        f.write(bytes(options))
                count = len(op["inputs"]) + len(op["outputs"])
                one = {
                    "version": 3,
                    "operator_codes": [{"deprecated_builtin_code": 32, "custom_code": code["custom_code"],
                                        "version": code.get("version", 1), "builtin_code": "CUSTOM"}],
                    "subgraphs": [{
                        "tensors": [{"shape": tensors[i].get("shape", []), "type": "FLOAT32", "buffer": 0,
                                     "name": "t%d" % n} for n, i in enumerate(op["inputs"] + op["outputs"])],
                        "inputs": list(range(len(op["inputs"]))),
                        "outputs": list(range(len(op["inputs"]), count)),
                        "operators": [dict({"opcode_index": 0, "inputs": list(range(len(op["inputs"]))),
                                            "outputs": list(range(len(op["inputs"]), count))},
                                           **({"custom_options": options, "custom_options_format": "FLEXBUFFERS"}
                                              if options else {}))],
                        "name": "main",
                    }],
                    "buffers": [{}],
                }
                source = os.path.join(work, stem + ".json")
                with open(source, "w") as f:
                    json.dump(one, f)
                # The build schema's file_extension makes this STEM.tflite.
                subprocess.run(["flatc", "-b", "-o", tflite_dir, build_schema, source], check=True)


if __name__ == "__main__":
    main()
