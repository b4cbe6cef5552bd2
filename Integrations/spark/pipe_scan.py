"""swift-blazeface on Spark: `RDD.pipe` streams each partition's paths through one
`blazeface detect --files-from - --json-lines` process and reads one JSON line back per path.

    python pipe_scan.py --input DIR --output OUT.parquet --binary BLAZEFACE --models-dir MODELS \\
        [--master local[2]] [--partitions N] [--threads 1] [--task detect|analyze]

One process per partition, models loaded once per partition; a partition whose process fails (non-zero exit)
is retried whole by Spark, so no row is lost or repeated. PySpark's pipe runs the command without a shell
(shlex.split) and with an empty environment: give the binary and the models as absolute paths.
See Documentation/Scaling.md.
"""

import argparse
import json
import os
import shlex
import sys
import time


def list_files(folder):
    found = []
    for root, folders, files in os.walk(folder):
        folders.sort()
        found.extend(os.path.abspath(os.path.join(root, name)) for name in sorted(files))
    return found


def to_row(line):
    record = json.loads(line)
    if "error" in record:
        return (record["path"], None, None, None, None, record["error"])
    faces = record["faces"]
    return (record["path"], record["width"], record["height"], len(faces),
            json.dumps(faces, separators=(",", ":"), sort_keys=True), None)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--input", required=True)
    parser.add_argument("--output", required=True)
    parser.add_argument("--binary", required=True)
    parser.add_argument("--models-dir", required=True)
    parser.add_argument("--master", default="local[2]")
    parser.add_argument("--partitions", type=int, default=8)
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--task", default="detect", choices=("detect", "landmarks", "analyze"))
    arguments = parser.parse_args()

    from pyspark.sql import SparkSession
    from pyspark.sql.types import IntegerType, StringType, StructField, StructType

    binary, models = os.path.abspath(arguments.binary), os.path.abspath(arguments.models_dir)
    if not os.access(binary, os.X_OK):
        sys.exit(f"pipe_scan.py: the blazeface binary {binary} does not exist or cannot run")
    command = shlex.join([binary, arguments.task, "--files-from", "-", "--json-lines",
                          "--threads", str(arguments.threads), "--models-dir", models])
    paths = list_files(arguments.input)
    # A path with a line break cannot travel as one line: report it here instead of sending it.
    sendable = [path for path in paths if "\n" not in path and "\r" not in path]
    spark = SparkSession.builder.master(arguments.master).appName("blazeface-pipe").getOrCreate()
    started = time.monotonic()
    try:
        lines = spark.sparkContext.parallelize(sendable, arguments.partitions).pipe(command, checkCode=True)
        schema = StructType([StructField("path", StringType()), StructField("width", IntegerType()),
                             StructField("height", IntegerType()), StructField("face_count", IntegerType()),
                             StructField("faces", StringType()), StructField("error", StringType())])
        rows = lines.map(to_row)
        sent = set(sendable)
        unsent = [(path, None, None, None, None, "the path contains a line break") for path in paths
                  if path not in sent]
        if unsent:
            rows = rows.union(spark.sparkContext.parallelize(unsent, 1))
        spark.createDataFrame(rows, schema).write.mode("errorifexists").parquet(arguments.output)
        seconds = time.monotonic() - started
        written = spark.read.parquet(arguments.output)
        summary = {"pictures": len(paths), "rows": written.count(),
                   "distinct_paths": written.select("path").distinct().count(),
                   "errors": written.where("error IS NOT NULL").count(), "seconds": round(seconds, 2),
                   "pictures_per_second": round(len(paths) / seconds, 1)}
    finally:
        spark.stop()
    print(json.dumps(summary))


if __name__ == "__main__":
    main()
