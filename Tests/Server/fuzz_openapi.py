#!/usr/bin/env python3
"""Schemathesis against a running `blazeface serve`: case 6 of Tests/Server/hostile.py, or on its own:

    /tmp/bf-hostile/venv/bin/python Tests/Server/fuzz_openapi.py --url http://127.0.0.1:8080 \
        [--examples 2600] [--without-multipart] [--workdir DIR]

It fuzzes every operation of GET /openapi.yaml with `--max-examples N` per operation (2600 gives about 10,400
requests; the GET routes take no input, so most of them go to the four POST /v1/ routes), counts what the
server served from its own /metrics (`blazeface_http_requests_total`, by status), and reads schemathesis's JSON
report for the failures by kind. --without-multipart fuzzes a copy of the document without the
multipart/form-data request bodies (hostile.py uses it to go on after the multipart parser crashed the server).
Checks kept and left out, with reasons: CHECKS below; 503/504 are allowed by Tests/Server/schemathesis.toml.
Exit status 0 only when there was no failure, no error and no 5xx other than 503/504.
"""
import argparse, json, os, re, shutil, subprocess, sys, tempfile, time, urllib.request

# Kept: no 5xx but 503/504 (schemathesis.toml), documented status codes, content types, headers and response
# schemas, out-of-range queries refused, 405 for undeclared methods. Left out: positive_data_acceptance (a
# schema-valid `string` body is rarely a decodable picture, so 415/422 are the right answers for it),
# missing_required_header (none is required), ignored_auth (the server runs without --api-key-file and the
# document lists `{}` as an alternative to the key), use_after_free / ensure_resource_availability /
# object_level_authorization (nothing is created), max_response_time (a debug build is slow, not wrong).
# GET /openapi.yaml is left out (as schemathesis itself does when it loads the document from that URL): it
# parses the application/yaml answer into an object and then finds that it is not the `{type: string}` declared.
CHECKS = ("not_a_server_error,status_code_conformance,content_type_conformance,response_headers_conformance,"
          "response_schema_conformance,negative_data_rejection,unsupported_method")
CONFIG = os.path.join(os.path.dirname(os.path.abspath(__file__)), "schemathesis.toml")


def find_schemathesis():
    beside = os.path.join(os.path.dirname(sys.executable), "schemathesis")
    return beside if os.path.exists(beside) else shutil.which("schemathesis")


def served_requests(base):
    """The server's request counts from /metrics, keyed (endpoint, status); None when it does not answer."""
    try:
        text = urllib.request.urlopen(base + "/metrics", timeout=10).read().decode()
    except OSError:
        return None
    pattern = r'blazeface_http_requests_total\{endpoint="([^"]*)",status="(\d+)"\} (\S+)'
    return {(endpoint, status): int(float(n)) for endpoint, status, n in re.findall(pattern, text)}


def without_multipart(document):
    """The YAML document less every `multipart/form-data:` block (the lines indented deeper than its key)."""
    kept, skip_deeper_than = [], None
    for line in document.splitlines():
        indent = len(line) - len(line.lstrip())
        if skip_deeper_than is not None and (indent > skip_deeper_than or not line.strip()):
            continue
        skip_deeper_than = None
        if line.strip() == "multipart/form-data:":
            skip_deeper_than = indent
            continue
        kept.append(line)
    return "\n".join(kept) + "\n"


def run(base, executable, examples, workdir, label, drop_multipart=False, seed=20261127):
    """One schemathesis run; a summary dict (see `describe`)."""
    location = base + "/openapi.yaml"
    if drop_multipart:
        location = os.path.join(workdir, f"openapi-{label}.yaml")
        with open(location, "w") as copy:
            copy.write(without_multipart(urllib.request.urlopen(base + "/openapi.yaml", timeout=10).read().decode()))
    report = os.path.join(workdir, f"schemathesis-{label}.json")
    log = os.path.join(workdir, f"schemathesis-{label}.txt")
    command = [executable, "--config-file", CONFIG, "run", location, "--url", base, "--checks", CHECKS,
               "--exclude-path", "/openapi.yaml", "--max-examples", str(examples), "--continue-on-failure",
               "--workers", "1", "--seed", str(seed), "--generation-database", "none", "--no-color",
               "--report", "json", "--report-json-path", report]
    before, began = served_requests(base), time.monotonic()
    with open(log, "w") as output:
        # In the work folder: schemathesis keeps a crash cache (.schemathesis/) in its working directory.
        code = subprocess.run(command, stdout=output, stderr=subprocess.STDOUT, cwd=workdir, timeout=3600)
    code = code.returncode
    seconds, after = time.monotonic() - began, served_requests(base)
    data = json.load(open(report))
    summary = {"label": label, "version": data["schemathesis_version"], "exit": code, "seconds": seconds,
               "generated": data["test_cases"]["generated"], "log": log, "server_alive": after is not None,
               "failures": {f"{f['code']} {f['title']}": f["count"] for f in data["failures"]},
               "errors": [e.get("title", "?") for e in data["errors"]], "served": None, "by_status": {}}
    if before is not None and after is not None:
        delta = {key: n - before.get(key, 0) for key, n in after.items() if n != before.get(key, 0)}
        delta[("/metrics", "200")] = delta.get(("/metrics", "200"), 0) - 1  # our own first GET /metrics
        summary["served"] = sum(delta.values())
        for (_, status), n in delta.items():
            summary["by_status"][status] = summary["by_status"].get(status, 0) + n
    summary["server_errors"] = {status: n for status, n in summary["by_status"].items()
                                if status[0] == "5" and status not in ("503", "504")}
    summary["ok"] = (not summary["failures"] and not summary["errors"] and not summary["server_errors"]
                     and summary["server_alive"])
    return summary


def describe(summary):
    served = (f"{summary['served']} requests served (statuses {dict(sorted(summary['by_status'].items()))})"
              if summary["served"] is not None else "requests served: unknown (no /metrics after the run)")
    return (f"{summary['label']}: schemathesis {summary['version']} exit {summary['exit']} in "
            f"{summary['seconds']:.0f} s, {summary['generated']} test cases, {served}, failures "
            f"{summary['failures'] or 'none'}, errors {summary['errors'] or 'none'}, 5xx other than 503/504 "
            f"{summary['server_errors'] or 'none'}, server {'alive' if summary['server_alive'] else 'GONE'} "
            f"(log {summary['log']})")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--url", required=True, help="the server's base URL, e.g. http://127.0.0.1:8080")
    parser.add_argument("--examples", type=int, default=2600)
    parser.add_argument("--without-multipart", action="store_true")
    parser.add_argument("--schemathesis", default=find_schemathesis())
    parser.add_argument("--workdir", default=None)
    options = parser.parse_args()
    if not options.schemathesis:
        sys.exit("no schemathesis: pip install -r Tests/Server/requirements.txt")
    workdir = os.path.abspath(options.workdir or tempfile.mkdtemp(prefix="bf-fuzz-"))
    os.makedirs(workdir, exist_ok=True)
    summary = run(options.url.rstrip("/"), options.schemathesis, options.examples, workdir,
                  "without-multipart" if options.without_multipart else "full", options.without_multipart)
    print(describe(summary))
    sys.exit(0 if summary["ok"] else 1)


if __name__ == "__main__":
    main()
