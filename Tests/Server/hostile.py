#!/usr/bin/env python3
"""Hostile-client tests of `blazeface serve`: a server that must stay up, answer in JSON and free what it took.

How to run (from the repository's root; Python 3.11, only the standard library but for case 6):

    swift build -c release --product blazeface --traits Server   # or the debug build: .build/debug/blazeface
    python3 -m venv /tmp/bf-hostile/venv
    /tmp/bf-hostile/venv/bin/pip install -r Tests/Server/requirements.txt   # schemathesis, for case 6 only
    /tmp/bf-hostile/venv/bin/python Tests/Server/hostile.py --binary .build/release/blazeface [--models-dir Models]

    Options: --cases 1,2,3 (a subset, in that order), --fuzz-examples N (schemathesis examples per operation,
    default 2600: about 10,400 requests), --schemathesis PATH (default: the one beside this Python, else on PATH;
    case 6 is skipped when there is none), --workdir DIR (server logs and reports; default a temporary folder).

The script starts its own server on a free port (`--port 0`, the port read from the stderr line
"blazeface serve: listening on http://127.0.0.1:PORT ...") with small limits (idle timeout 2 s, request timeout
5 s, 8 MB bodies, 2 workers, queue 8), runs each case, and after each one checks that the process is alive,
GET /healthz answers 200, and samples VmRSS from /proc/PID/status. A server that died is reported with the
crash's first line and frame from its log, and a new one is started for the cases after. Finally it sends
SIGTERM and expects exit 0. Every case prints one line of figures; the exit status is 0 only when every case
passed and no server died. Traffic goes to 127.0.0.1 only and every loop is bounded in count and time (about
4 minutes in all on 2 cores, debug or release build).

Cases: 1 slowloris (200 connections trickling header bytes), 2 bodies that never end (declared 100 MB, trickled;
chunked forever; too slow), 3 truncated and garbage pictures, 4 pictures that claim huge sizes, 5 a thousand
concurrent requests, 6 schemathesis against /openapi.yaml (Tests/Server/fuzz_openapi.py: which checks and why;
when the full document crashes the server, a second run without multipart bodies still covers the rest),
7 malformed multipart/form-data bodies.
"""
import argparse, asyncio, http.client, json, os, random, re, resource, select, signal, socket
import statistics, struct, subprocess, sys, tempfile, threading, time, zlib

import fuzz_openapi

LIMITS = {"idle": 2.0, "request": 5.0, "max_body": 8_000_000, "workers": 2, "queue": 8}
ENDPOINTS = ["/v1/detect", "/v1/landmarks", "/v1/analyze", "/v1/segment"]


class Server:
    """One `blazeface serve` process: start, port, RSS, health, SIGTERM."""

    def __init__(self, binary, models_dir, log_path):
        args = [binary, "serve", "--port", "0", "--idle-timeout", str(LIMITS["idle"]),
                "--request-timeout", str(LIMITS["request"]), "--max-body-bytes", str(LIMITS["max_body"]),
                "--workers", str(LIMITS["workers"]), "--max-queue", str(LIMITS["queue"])]
        if models_dir:
            args += ["--models-dir", models_dir]
        self.log = open(log_path, "w")
        self.proc = subprocess.Popen(args, stdin=subprocess.DEVNULL, stdout=self.log, stderr=subprocess.PIPE)
        self.port, ready = None, threading.Event()

        def drain():  # the server's stderr, into the log; the first "listening" line gives the port
            for raw in self.proc.stderr:
                line = raw.decode(errors="replace")
                self.log.write(line)
                found = re.search(r"listening on http://127\.0\.0\.1:(\d+)", line)
                if found and self.port is None:
                    self.port = int(found.group(1))
                    ready.set()
            ready.set()
        self.drainer = threading.Thread(target=drain, daemon=True)
        self.drainer.start()
        if not ready.wait(120) or self.port is None:
            self.proc.kill()
            sys.exit(f"the server did not start: see {log_path}")

    def rss_mib(self):
        return rss_mib(self.proc.pid)

    def healthz(self):
        try:
            return request(self.port, "GET", "/healthz", timeout=5)[0]
        except OSError as error:
            return type(error).__name__

    def crash(self):
        """Why a dead server died: its exit status, the fatal error and the first frame in blazeface."""
        code = self.proc.wait()
        self.drainer.join(10)
        self.log.flush()
        text = open(self.log.name, errors="replace").read()
        fatal = re.search(r"^.*(Fatal error|Program crashed).*$", text, re.M)
        frames = re.findall(r"^\s*\d+ (?:\[\w+\] *)*0x[0-9a-f]+ (.+?)(?: \+ \d+)? in \S+ at (/\S+\.swift:\d+)",
                            text.partition(" crashed:\n")[2], re.M)  # the crashed thread's frames with a source line
        frames = [f for f in frames if not re.match(r"(specialized )?(Array|ContiguousArray)\b", f[0])]
        where = f" in {frames[0][0]} at {os.path.basename(frames[0][1])}" if frames else ""
        return f"exit status {code}: {fatal.group(0).strip(' *') if fatal else 'no crash report'}{where}"

    def stop(self, timeout=40):
        self.proc.send_signal(signal.SIGTERM)
        try:
            code = self.proc.wait(timeout)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            code = f"killed after {timeout} s"
        self.log.close()
        return code


def rss_mib(pid):
    with open(f"/proc/{pid}/status") as status:
        return int(re.search(r"VmRSS:\s+(\d+)", status.read()).group(1)) / 1024


def request(port, method, path, body=None, headers=None, timeout=30):
    """One request on a fresh connection: (status, lower-cased headers, body)."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    try:
        connection.request(method, path, body=body, headers=headers or {})
        response = connection.getresponse()
        return response.status, {k.lower(): v for k, v in response.getheaders()}, response.read()
    finally:
        connection.close()


def is_api_error(body):
    try:
        error = json.loads(body)["error"]
        return isinstance(error["code"], str) and isinstance(error["message"], str)
    except (ValueError, KeyError, TypeError):
        return False


def spread(values):
    return f"{min(values):.2f}-{max(values):.2f} s (median {statistics.median(values):.2f})" if values else "none"


# 1. Slowloris --------------------------------------------------------------------------------------------------
async def slow_client(port, limit):
    """Trickles a request head (1 byte / 0.5 s) until the server closes: (how, seconds, what it sent)."""
    start, seen = time.monotonic(), b""
    head = b"POST /v1/detect HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: " + b"a" * 400
    try:
        reader, writer = await asyncio.wait_for(asyncio.open_connection("127.0.0.1", port), 30)
    except (OSError, asyncio.TimeoutError) as error:
        return type(error).__name__, time.monotonic() - start, b""
    start = time.monotonic()
    try:
        for index in range(len(head)):
            if time.monotonic() - start > limit:
                return "still open", time.monotonic() - start, seen
            writer.write(head[index:index + 1])
            await writer.drain()
            try:
                data = await asyncio.wait_for(reader.read(4096), 0.5)
            except asyncio.TimeoutError:
                continue
            if not data:
                return "closed", time.monotonic() - start, seen
            seen += data
        return "still open", time.monotonic() - start, seen
    except OSError:
        return "reset", time.monotonic() - start, seen
    finally:
        writer.close()


def case_slowloris(port, samples, count=200):
    limit = LIMITS["idle"] + 8

    async def run():
        async def normal_detect():
            await asyncio.sleep(1.0)
            began = time.monotonic()
            status = (await asyncio.to_thread(request, port, "POST", "/v1/detect", samples["astronaut"]))[0]
            return status, time.monotonic() - began
        slow = [slow_client(port, limit) for _ in range(count)]
        return await asyncio.gather(normal_detect(), *slow)
    (detect_status, detect_seconds), *slow = asyncio.run(run())
    closed = [seconds for how, seconds, _ in slow if how in ("closed", "reset")]
    statuses = sorted({seen.split(b" ")[1].decode() for _, _, seen in slow if seen.startswith(b"HTTP/")})
    ok = len(closed) == count and max(closed) <= LIMITS["idle"] + 3 and detect_status == 200
    return ok, (f"{len(closed)}/{count} closed by the server in {spread(closed)}; statuses sent {statuses or 'none'}; "
                f"POST /v1/detect meanwhile: {detect_status} in {detect_seconds:.2f} s")


# 2. Bodies that never end --------------------------------------------------------------------------------------
def endless_body(port, head, piece, interval, wait_limit=15.0, flood_seconds=3.0):
    """Sends `head`, then `piece` every `interval` s until the server answers; then sends as fast as it can.

    Returns the status, seconds to the answer, seconds from the answer to the close, and the body bytes sent
    before the answer and accepted after it (loopback socket buffers included; SO_SNDBUF is 64 KiB)."""
    sock = socket.socket()
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, 65536)
    sock.settimeout(10)
    sock.connect(("127.0.0.1", port))
    sock.sendall(head)
    start, answer, answered, closed, before, after = time.monotonic(), b"", None, None, 0, 0
    sock.settimeout(0.5)
    while closed is None:
        now = time.monotonic()
        if answered is None and now - start > wait_limit or answered is not None and now - answered > flood_seconds:
            break
        try:
            if select.select([sock], [], [], interval if answered is None else 0)[0]:
                data = sock.recv(65536)
                if not data:
                    closed = time.monotonic()
                    break
                answer += data
                answered = answered or time.monotonic()
                continue
            sock.sendall(piece)
            if answered is None:
                before += len(piece)
            else:
                after += len(piece)
        except socket.timeout:
            continue  # the server reads no more: the buffers are full
        except OSError:
            closed = time.monotonic()
    sock.close()
    status = answer.split(b" ")[1].decode() if answer.startswith(b"HTTP/") else "none"
    return {"status": status, "answer": (answered or time.monotonic()) - start,
            "close": closed - answered if closed and answered else None, "before": before, "after": after}


def case_endless_bodies(port):
    def head(extra):
        return f"POST /v1/detect HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: image/jpeg\r\n{extra}\r\n".encode()

    def chunk(size):
        return b"%x\r\n" % size + b"\0" * size + b"\r\n"
    variants = [  # name, head, piece, interval, statuses allowed
        ("Content-Length 100 MB, 1 KB/0.1 s", head("Content-Length: 100000000\r\n"), b"\0" * 1024, 0.1, {"413"}),
        ("Content-Length 7 MB, 1 KB/0.1 s", head("Content-Length: 7000000\r\n"), b"\0" * 1024, 0.1, {"408"}),
        ("chunked forever, ~0.6 MB/s", head("Transfer-Encoding: chunked\r\n"), chunk(32768), 0.05, {"408", "413"}),
        ("chunked forever, ~5 MB/s", head("Transfer-Encoding: chunked\r\n"), chunk(262144), 0.05, {"408", "413"}),
    ]
    parts, ok = [], True
    for name, start, piece, interval, allowed in variants:
        result = endless_body(port, start, piece, interval)
        good = result["status"] in allowed and result["close"] is not None and result["after"] < 2 * 2**20
        ok &= good
        close = f"closed {result['close']:.2f} s later" if result["close"] is not None else "NOT closed"
        parts.append(f"{name}: {result['status']} after {result['answer']:.2f} s ({result['before'] / 1e6:.2f} MB "
                     f"sent), {close}, {result['after'] / 1e3:.0f} kB accepted after{'' if good else ' [BAD]'}")
    return ok, "; ".join(parts)


# 3. Truncated and garbage pictures -----------------------------------------------------------------------------
def damaged_pictures(samples):
    """(name, body, whether a 200 is allowed): only a file cut in its end marker, all pixel data present."""
    rng, png, jpeg = random.Random(1234), samples["astronaut"], samples["jpeg"]
    payloads = [("empty body", b"", False)]
    for name, data, trailer in (("png", png, 12), ("jpeg", jpeg, 2)):  # IEND chunk, EOI marker
        for cut in (1, 4, 8, 16, 33, 64, 200, 1000, len(data) // 10, len(data) // 2, len(data) - 100):
            payloads.append((f"{name} cut at {cut}", data[:cut], False))
        for cut in (len(data) - trailer, len(data) - 1):
            payloads.append((f"{name} cut at {cut} (in its end marker)", data[:cut], True))
    for size in (1, 3, 100, 10_000, 1_000_000):
        payloads.append((f"{size} random bytes", rng.randbytes(size), False))
    scan = jpeg.index(b"\xff\xda")
    payloads.append(("jpeg headers up to SOS + garbage", jpeg[:scan + 14] + rng.randbytes(50_000), False))
    payloads.append(("jpeg SOI/APP0 + garbage", jpeg[:20] + rng.randbytes(50_000), False))
    payloads.append(("png signature + IHDR + garbage", png[:33] + rng.randbytes(50_000), False))
    return payloads


def case_damaged(port, samples):
    statuses, bad, seconds = {}, [], []
    for name, body, whole in damaged_pictures(samples):
        for endpoint in ENDPOINTS:
            began = time.monotonic()
            try:
                status, _, answer = request(port, "POST", endpoint, body, {"Content-Type": "application/octet-stream"})
                seen = str(status)
                if not (status in (415, 422) and is_api_error(answer) or whole and status == 200):
                    bad.append(f"{endpoint} {name}: {status} {answer[:80]!r}")
            except OSError as error:
                seen = type(error).__name__
                bad.append(f"{endpoint} {name}: {seen}")
            seconds.append(time.monotonic() - began)
            statuses[seen] = statuses.get(seen, 0) + 1
    return not bad, (f"{len(seconds)} requests, statuses {dict(sorted(statuses.items()))}, "
                     f"{spread(seconds)} each" + ("; BAD: " + "; ".join(bad[:6]) if bad else ""))


# 4. Pictures that claim huge sizes -----------------------------------------------------------------------------
def png_chunk(kind, data):
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))


def huge_pictures(samples):
    ihdr = png_chunk(b"IHDR", struct.pack(">IIBBBBB", 100_000, 100_000, 8, 2, 0, 0, 0))
    signature, end = b"\x89PNG\r\n\x1a\n", png_chunk(b"IEND", b"")
    packer = zlib.compressobj(9)
    bomb = b"".join(packer.compress(bytes(1 << 20)) for _ in range(64)) + packer.flush()  # 64 MiB of zeros
    jpeg = bytearray(samples["jpeg"])
    frame = next(i for i in range(len(jpeg) - 1) if jpeg[i] == 0xFF and jpeg[i + 1] in (0xC0, 0xC1, 0xC2))
    jpeg[frame + 5:frame + 9] = struct.pack(">HH", 65500, 65500)  # SOF height, width
    one_row = png_chunk(b"IDAT", zlib.compress(bytes(1 + 3 * 100_000)))
    return [("PNG 100000x100000, IHDR + 1-row IDAT + IEND", signature + ihdr + one_row + end),
            (f"PNG 100000x100000 + IDAT inflating to 64 MiB ({len(bomb) // 1024} KiB)",
             signature + ihdr + png_chunk(b"IDAT", bomb) + end),
            ("JPEG whose SOF claims 65500x65500", bytes(jpeg))]


def case_huge(server, samples):
    parts, ok = [], True
    for name, body in huge_pictures(samples):
        rss, began = server.rss_mib(), time.monotonic()
        status, _, answer = request(server.port, "POST", "/v1/detect", body, {"Content-Type": "image/png"})
        seconds, grown = time.monotonic() - began, server.rss_mib() - rss
        code = json.loads(answer)["error"]["code"] if is_api_error(answer) else answer[:60]
        good = status == 422 and code == "image_too_large" and seconds < 1 and grown < 20
        ok &= good
        parts.append(f"{name}: {status} {code} in {seconds * 1000:.0f} ms, RSS {grown:+.1f} MiB"
                     + ("" if good else " [BAD]"))
    return ok, "; ".join(parts)


# 5. A thousand concurrent requests -----------------------------------------------------------------------------
async def one_request(port, payload):
    try:
        reader, writer = await asyncio.wait_for(asyncio.open_connection("127.0.0.1", port), 60)
    except (OSError, asyncio.TimeoutError) as error:
        return "connect " + type(error).__name__, False
    try:
        writer.write(payload)
        await writer.drain()
        answer = await asyncio.wait_for(reader.read(), 60)
        if not answer.startswith(b"HTTP/1.1 "):
            return "no answer", False
        status = answer[9:12].decode()
        return status, b"\r\nretry-after:" in answer.split(b"\r\n\r\n")[0].lower()
    except (OSError, asyncio.TimeoutError) as error:
        return type(error).__name__, False
    finally:
        writer.close()


def case_concurrency(port, pid, samples, count=1000):
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < count + 100:
        resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, 8192), hard))
    body = samples["small"]
    payload = (f"POST /v1/detect HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: image/jpeg\r\n"
               f"Content-Length: {len(body)}\r\nConnection: close\r\n\r\n").encode() + body

    async def run():
        return await asyncio.gather(*(one_request(port, payload) for _ in range(count)))
    parts, ok = [], True
    for burst in (1, 2):  # a second burst tells a leak (RSS grows again) from a high-water mark
        began = time.monotonic()
        results = asyncio.run(run())
        seconds, tally = time.monotonic() - began, {}
        for status, _ in results:
            tally[status] = tally.get(status, 0) + 1
        without_retry = sum(1 for status, retry in results if status == "503" and not retry)
        ok &= set(tally) <= {"200", "503"} and tally.get("200", 0) > 0 and without_retry == 0
        parts.append(f"burst {burst}: {count} at once in {seconds:.1f} s: {dict(sorted(tally.items()))}, "
                     f"503 without Retry-After: {without_retry}, RSS then {rss_mib(pid):.1f} MiB")
    return ok, "; ".join(parts)


# 6. Schemathesis -----------------------------------------------------------------------------------------------
def case_schemathesis(harness, executable, examples):
    if not executable:
        return None, "skipped: no schemathesis (pip install -r Tests/Server/requirements.txt)"

    def base():
        return f"http://127.0.0.1:{harness.server.port}"
    full = fuzz_openapi.run(base(), executable, examples, harness.workdir, "full")
    parts, ok = [fuzz_openapi.describe(full)], full["ok"]
    if harness.server.proc.poll() is not None:
        parts.append(f"server CRASHED ({harness.restart()}), restarted")
        rest = fuzz_openapi.run(base(), executable, examples, harness.workdir, "without-multipart", True)
        parts.append(fuzz_openapi.describe(rest))
        ok = False
    return ok, "; ".join(parts)


# 7. Malformed multipart/form-data ------------------------------------------------------------------------------
def multipart_bodies(samples):
    """(name, Content-Type, body, statuses allowed); the ones that crashed the server come last."""
    def form(*parts, final=True):
        return b"".join(b"--hostile\r\n" + p for p in parts) + (b"--hostile--\r\n" if final else b"")
    kind = "multipart/form-data; boundary=hostile"
    image = b'Content-Disposition: form-data; name="image"\r\n\r\n'
    return [("valid image part", kind, form(image + samples["small"] + b"\r\n"), {200}),
            ("truncated picture in the image part", kind, form(image + samples["small"][:5000] + b"\r\n"), {422}),
            ("no part named image", kind, form(b'Content-Disposition: form-data; name="file"\r\n\r\nx\r\n'), {400}),
            ("no boundary parameter", "multipart/form-data", form(image + b"x\r\n"), {400}),
            ("another boundary in the body", "multipart/form-data; boundary=other", form(image + b"x\r\n"), {400}),
            ("no closing boundary", kind, form(image + samples["small"] + b"\r\n", final=False), {400, 422}),
            ("part header line without a colon", kind, form(b"Content-Disposition form-data\r\n\r\nx\r\n"), {400}),
            ("2000 empty parts", kind, form(*[b"X-A: b\r\n\r\n\r\n"] * 2000), {400}),
            ("part header name with byte 0x80", kind, form(b"\x80: a\r\n\r\nx\r\n"), {400}),
            ("part header name in UTF-8 (\u00e9)", kind, form("\u00e9: a\r\n\r\nx\r\n".encode()), {400})]


def case_multipart(harness, samples):
    statuses, bad = {}, []
    for name, kind, body, allowed in multipart_bodies(samples):
        if harness.server.proc.poll() is not None:
            bad.append(f"server CRASHED ({harness.restart()}), restarted")
        try:
            status, _, answer = request(harness.server.port, "POST", "/v1/detect", body, {"Content-Type": kind})
            seen = str(status)
            if status not in allowed or status != 200 and not is_api_error(answer):
                bad.append(f"{name}: {status} {answer[:80]!r}")
        except OSError as error:
            seen = type(error).__name__
            time.sleep(1)  # let a dying server finish its backtrace
            alive = harness.server.proc.poll() is None
            bad.append(f"{name}: {seen}{'' if alive else ' (the server died)'}")
        statuses[seen] = statuses.get(seen, 0) + 1
    return not bad, f"statuses {dict(sorted(statuses.items()))}" + ("; BAD: " + "; ".join(bad) if bad else "")


# Harness -------------------------------------------------------------------------------------------------------
class Harness:
    """The server the cases run against; a new one after a crash."""

    def __init__(self, options, workdir):
        self.options, self.workdir, self.count, self.crashes = options, workdir, 0, []
        self.start()

    def start(self):
        self.count += 1
        log = os.path.join(self.workdir, f"server-{self.count}.log")
        self.server = Server(self.options.binary, self.options.models_dir, log)
        print(f"blazeface serve pid {self.server.proc.pid} on port {self.server.port} (log {log})", flush=True)

    def restart(self):
        crash = self.server.crash()
        self.crashes.append(crash)
        self.start()
        return crash


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--binary", required=True)
    parser.add_argument("--models-dir", default="Models" if os.path.isdir("Models") else None)
    parser.add_argument("--cases", default="1,2,3,4,5,6,7")
    parser.add_argument("--fuzz-examples", type=int, default=2600)
    parser.add_argument("--schemathesis", default=fuzz_openapi.find_schemathesis())
    parser.add_argument("--workdir")
    options = parser.parse_args()
    workdir = os.path.abspath(options.workdir or tempfile.mkdtemp(prefix="bf-hostile-"))
    os.makedirs(workdir, exist_ok=True)
    folder = os.path.join(options.models_dir or "Models", "samples")
    samples = {key: open(os.path.join(folder, name), "rb").read() for key, name in
               (("astronaut", "astronaut.png"), ("jpeg", "single_face.jpg"), ("small", "0-f1-su-ph.jpg"))}
    print(f"limits {LIMITS}, work folder {workdir}")
    harness = Harness(options, workdir)
    cases = {"1": ("slowloris", lambda: case_slowloris(harness.server.port, samples)),
             "2": ("endless bodies", lambda: case_endless_bodies(harness.server.port)),
             "3": ("damaged pictures", lambda: case_damaged(harness.server.port, samples)),
             "4": ("huge pictures", lambda: case_huge(harness.server, samples)),
             "5": ("1000 concurrent", lambda: case_concurrency(harness.server.port, harness.server.proc.pid, samples)),
             "6": ("schemathesis", lambda: case_schemathesis(harness, options.schemathesis, options.fuzz_examples)),
             "7": ("malformed multipart", lambda: case_multipart(harness, samples))}
    all_ok = True
    try:
        for key in options.cases.split(","):
            name, run = cases[key.strip()]
            rss, began, servers = harness.server.rss_mib(), time.monotonic(), harness.count
            try:
                ok, detail = run()
            except Exception as error:  # a case that broke is a failure, not the end of the run
                ok, detail = False, f"the case raised {type(error).__name__}: {error}"
            if harness.server.proc.poll() is not None:
                ok, detail = False, detail + f"; server CRASHED ({harness.restart()}), restarted"
            if harness.count != servers:
                rss = float("nan")  # the RSS of another process: not comparable
            health, after = harness.server.healthz(), harness.server.rss_mib()
            ok = ok if ok is None else ok and health == 200
            all_ok &= ok is not False
            verdict = {True: "PASS", False: "FAIL", None: "SKIP"}[ok]
            print(f"[{key} {name}] {verdict} ({time.monotonic() - began:.1f} s) {detail} | "
                  f"RSS {rss:.1f} -> {after:.1f} MiB, healthz {health}", flush=True)
    finally:
        code = harness.server.stop() if harness.server.proc.poll() is None else harness.server.crash()
    print(f"[SIGTERM] {'PASS' if code == 0 else 'FAIL'} exit status {code}")
    print(f"[crashes] {len(harness.crashes)}" + "".join(f"\n  {crash}" for crash in harness.crashes))
    sys.exit(0 if all_ok and code == 0 and not harness.crashes else 1)


if __name__ == "__main__":
    main()
