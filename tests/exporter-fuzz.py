#!/usr/bin/env python3
"""exporter-fuzz.py: the exporter's collector against monitors that die,
close, hang and misbehave at random moments while it is scraped (issue 38
item 1), for tests/integration/exporter-fuzz.sh (a test program).

The monitors are real QEMUs (--real NAME=MONITOR,SPARE,PIDFILE: the
exporter's monitor, a spare one this program reads once, QEMU's pidfile),
made to hang by SIGSTOP and to die by SIGKILL, as a wedged or crashed QEMU
does; and fake ones, served here, for what real QEMU cannot be made to do
while it lives: close its monitor, answer late, half an answer, garbage,
an event flood, no greeting (the fakes answer with the real QEMU's own
replies, read from the spare monitor, their base-memory changed so that
each VM's figure is its own).  Some fakes are --vm, some live in --vm-dir
(a socket that goes away takes its VM out of the set).

Each monitor follows a schedule drawn from --seed (printed; the schedule
is reproducible, the interleaving with the exporter's timers is not), in
phases: healthy, flaky (per command: answer, late, close, half, garbage,
flood, hang the connection), hung (nothing answered until the phase
ends, then the queued commands are), dead-stale (listener closed, socket
file left: a QEMU that crashed) and dead-gone (socket removed).  The
exporter is scraped all along; every scrape must:
  - answer, within --scrape-bound seconds, while the exporter lives;
  - pass promtool check metrics and tests/prom-lint;
  - show qmigrate_vm_up 0 (or no series, for --vm-dir) for every monitor
    dead throughout the last D = interval + vm-timeout + --slack seconds,
    and qmigrate_vm_stale 1 for every one hung that long;
  - show, for every VM up, the memory of that VM and no other.
Every --once-every seconds an `exporter --once` over the same monitors
must exit 0 within --once-bound seconds with valid metrics and a
qmigrate_vm_up for every --vm.
At the end the survivors are made healthy and must all be up and fresh
within 40 s; the dead ones down.  Then SIGTERM: the exporter exits 0 with
no sanitizer report on stderr.  Exit 0 when all held; 1 with FAIL: lines.
"""
import argparse
import asyncio
import json
import os
import random
import re
import signal
import socket
import sys
import time

MODES = ("healthy", "flaky", "hung", "dead-stale", "dead-gone")
FAILS = []


def fail(msg):
    FAILS.append(msg)
    print("FAIL: " + msg, flush=True)


def now():
    return time.monotonic()


class Monitor:
    """What a schedule drives: a mode, and the times it changed."""

    def __init__(self, name, rng):
        self.name = name
        self.rng = rng
        self.mode = "healthy"
        self.history = [(0.0, "healthy")]
        self.memory = None

    def record(self, mode):
        self.history.append((now(), mode))
        self.mode = mode

    def held(self, mode, since, until):
        """Whether the mode held through [since, until]."""
        last = None
        for t, m in self.history:
            if t <= since:
                last = m
            elif t <= until:
                return False
        return last == mode


class Fake(Monitor):
    """A monitor served here, from the real QEMU's replies."""

    def __init__(self, name, path, rng, replies, memory, timeout):
        super().__init__(name, rng)
        self.path = path
        self.replies = replies
        self.memory = memory
        self.timeout = timeout
        self.server = None
        self.writers = set()
        self.awake = asyncio.Event()
        self.awake.set()
        self.changed = asyncio.Event()
        self.counts = {}

    def count(self, what):
        self.counts[what] = self.counts.get(what, 0) + 1

    async def listen(self):
        if os.path.lexists(self.path):
            os.unlink(self.path)
        s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        s.bind(self.path)
        s.listen(16)
        self.server = await asyncio.start_unix_server(
            self.serve, sock=s, limit=1 << 20)

    def die(self, gone):
        if self.server is not None:
            self.server.close()
            self.server = None
        for w in list(self.writers):
            w.transport.abort()
        self.writers.clear()
        if gone and os.path.lexists(self.path):
            os.unlink(self.path)
        self.count("die")

    async def set_mode(self, mode):
        dead = self.mode.startswith("dead")
        if mode.startswith("dead"):
            if not dead:
                self.die(mode == "dead-gone")
            elif mode == "dead-gone" and os.path.lexists(self.path):
                os.unlink(self.path)
            elif mode == "dead-stale" and not os.path.lexists(self.path):
                # A socket file nobody listens on, as a crashed QEMU's.
                s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
                s.bind(self.path)
                s.close()
        elif dead:
            # Recorded before it listens: the exporter may connect while
            # listen() yields, and no scrape may then be judged as dead.
            self.record("reviving")
            await self.listen()
        if mode == "hung":
            self.awake.clear()
            self.count("hang")
        else:
            self.awake.set()
        self.changed.set()
        self.changed = asyncio.Event()
        self.record(mode)

    def answer(self, cmd, cid):
        if cmd == "qmp_capabilities":
            r = {"return": {}}
        elif cmd in self.replies:
            r = dict(self.replies[cmd])
            if cmd == "query-memory-size-summary":
                r["return"] = dict(r["return"], **{
                    "base-memory": self.memory, "plugged-memory": 0})
        else:
            r = {"error": {"class": "CommandNotFound",
                           "desc": "The command %s has not been found" % cmd}}
        if cid is not None:
            r["id"] = cid
        return (json.dumps(r) + "\r\n").encode()

    async def serve(self, reader, writer):
        self.writers.add(writer)
        rng = self.rng
        try:
            await self.awake.wait()
            if self.mode == "flaky":
                x = rng.random()
                if x < 0.05:
                    self.count("close-at-accept")
                    return
                if x < 0.15:
                    self.count("late-greeting")
                    await asyncio.sleep(rng.uniform(0, 2 * self.timeout))
            writer.write((json.dumps(self.replies["greeting"]) +
                          "\r\n").encode())
            await writer.drain()
            commands = read_commands(reader, self.name)
            async for msg in commands:
                await self.awake.wait()
                cmd, cid = msg.get("execute"), msg.get("id")
                reply = self.answer(cmd, cid)
                if self.mode == "flaky":
                    x = rng.random()
                    if x < 0.10:
                        self.count("late")
                        await asyncio.sleep(rng.uniform(0, 2 * self.timeout))
                    elif x < 0.15:
                        self.count("close")
                        return
                    elif x < 0.19:
                        self.count("half")
                        writer.write(reply[:len(reply) // 2])
                        await writer.drain()
                        return
                    elif x < 0.23:
                        self.count("garbage")
                        writer.write(b"\x00}{ not json at all\r\n")
                    elif x < 0.26:
                        self.count("flood")
                        ev = {"event": "NIC_RX_FILTER_CHANGED",
                              "data": {"path": "/machine/peripheral/net0"},
                              "timestamp": {"seconds": 1,
                                            "microseconds": 0}}
                        writer.write(((json.dumps(ev) + "\r\n") *
                                      200).encode())
                    elif x < 0.28:
                        self.count("huge")
                        writer.write(b'{"return": "' + b"a" * 262144)
                        await writer.drain()
                        return
                    elif x < 0.30:
                        # This connection answers again once the phase
                        # ends (a monitor wedged for a while, then the
                        # commands queued meanwhile, late).
                        self.count("hang-connection")
                        await self.changed.wait()
                        await self.awake.wait()
                writer.write(reply)
                await writer.drain()
        except (ConnectionError, asyncio.IncompleteReadError):
            pass
        finally:
            self.writers.discard(writer)
            writer.transport.abort()


async def read_commands(reader, name):
    """The JSON objects a client sends (QMP needs no newline between)."""
    dec, buf = json.JSONDecoder(), ""
    while True:
        buf = buf.lstrip()
        try:
            msg, end = dec.raw_decode(buf)
        except ValueError:
            if len(buf) > 65536:
                fail("%s: the exporter sent 64 KiB that are not JSON: %r"
                     % (name, buf[:80]))
                return
            chunk = await reader.read(4096)
            if not chunk:
                return
            buf += chunk.decode(errors="replace")
            continue
        buf = buf[end:]
        if not isinstance(msg, dict):
            fail("%s: the exporter sent %r" % (name, msg))
            return
        yield msg


class Real(Monitor):
    """A real QEMU: hung by SIGSTOP, dead by SIGKILL."""

    def __init__(self, name, path, pid, rng, memory):
        super().__init__(name, rng)
        self.path = path
        self.pid = pid
        self.memory = memory

    async def set_mode(self, mode):
        if mode == "hung":
            os.kill(self.pid, signal.SIGSTOP)
        elif mode == "dead-stale":
            os.kill(self.pid, signal.SIGKILL)
        else:
            os.kill(self.pid, signal.SIGCONT)
        self.record(mode)


def schedule(rng, duration, warmup, modes, weights):
    """[(start, mode)] after a healthy warm-up, phases of 1-5 s."""
    t, out = warmup, []
    while t < duration:
        out.append((t, rng.choices(modes, weights)[0]))
        t += rng.uniform(1, 5)
    out.append((duration, "healthy"))
    return out


async def drive(mon, plan, t0):
    for start, mode in plan:
        await asyncio.sleep(max(0, t0 + start - now()))
        if mode != mon.mode:
            await mon.set_mode(mode)


async def spare_replies(path, timeout):
    """The real QEMU's greeting and answers to what the exporter asks."""
    reader, writer = await asyncio.wait_for(
        asyncio.open_unix_connection(path, limit=1 << 22), timeout)

    async def line():
        while True:
            m = json.loads(await asyncio.wait_for(reader.readline(), timeout))
            if "event" not in m:
                return m

    out = {"greeting": await line()}
    cmds = [("qmp_capabilities", None), ("query-status", None),
            ("query-migrate", None), ("query-cpus-fast", None),
            ("query-memory-size-summary", None), ("query-balloon", None),
            ("query-blockstats", None),
            ("human-monitor-command", {"command-line": "info network"}),
            ("query-dirty-rate", None), ("query-rx-filter", None)]
    for cmd, args in cmds:
        msg = {"execute": cmd}
        if args:
            msg["arguments"] = args
        writer.write((json.dumps(msg) + "\n").encode())
        out[cmd] = await line()
    writer.close()
    return out


SERIES = re.compile(r'^(qmigrate_vm_(?:up|stale|memory_domain_bytes))'
                    r'\{([^}]*)\} (\S+)$')


def parse(text):
    """{(family, vm name): value} of the series this check reads."""
    got = {}
    for ln in text.splitlines():
        m = SERIES.match(ln)
        if m:
            name = re.search(r'name="([^"]*)"', m.group(2))
            if name:
                got[(m.group(1), name.group(1))] = float(m.group(3))
    return got


async def run(cmd, data):
    p = await asyncio.create_subprocess_exec(
        *cmd, stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.STDOUT)
    out, _ = await asyncio.wait_for(p.communicate(data), 30)
    return p.returncode, out.decode(errors="replace")


def down_value(m, dead):
    """qmigrate_vm_up of a dead monitor: 0, or no series for a socket gone
    from --vm-dir (the VM left the set)."""
    return None if dead == "dead-gone" and m.in_dir else 0.0


class Scraper:
    def __init__(self, a, port, monitors, exporter):
        self.a = a
        self.port = port
        self.monitors = monitors
        self.exporter = exporter
        self.n = 0
        self.worst = 0.0
        self.checked = {"dead": 0, "hung": 0, "memory": 0}
        self.window = a.interval + a.vm_timeout + a.slack

    async def scrape(self):
        a = self.a
        if self.exporter.returncode is not None:
            fail("the exporter exited (status %s) during the fuzz"
                 % self.exporter.returncode)
            return None
        start = now()
        try:
            reader, writer = await asyncio.wait_for(
                asyncio.open_connection("127.0.0.1", self.port), a.scrape_bound)
            writer.write(b"GET /metrics HTTP/1.0\r\nHost: x\r\n\r\n")
            body = await asyncio.wait_for(reader.read(), a.scrape_bound -
                                          (now() - start))
            writer.close()
        except (asyncio.TimeoutError, OSError) as e:
            fail("scrape %d: no answer within %.1f s (%s)"
                 % (self.n, a.scrape_bound, e.__class__.__name__))
            return None
        took = now() - start
        self.n += 1
        self.worst = max(self.worst, took)
        head, _, text = body.partition(b"\r\n\r\n")
        if not head.startswith(b"HTTP/1.") or b" 200 " not in head[:16]:
            fail("scrape %d: %r" % (self.n, head[:60]))
            return None
        return start, now(), text

    async def check(self, start, end, text):
        a = self.a
        for cmd in (["promtool", "check", "metrics"], [a.lint, "qmigrate_"]):
            rc, out = await run(cmd, text)
            if rc != 0:
                path = "%s/scrape-%d.prom" % (a.keep, self.n)
                with open(path, "wb") as f:
                    f.write(text)
                fail("scrape %d: %s: %s (kept in %s)"
                     % (self.n, cmd[0], out.strip()[:300], path))
        got = parse(text.decode(errors="replace"))
        since = start - self.window
        for m in self.monitors:
            up = got.get(("qmigrate_vm_up", m.name))
            stale = got.get(("qmigrate_vm_stale", m.name))
            for dead in ("dead-stale", "dead-gone"):
                if not m.held(dead, since, end):
                    continue
                self.checked["dead"] += 1
                if up != down_value(m, dead):
                    fail("scrape %d: %s dead for %.1f s and more, "
                         "qmigrate_vm_up %s" % (self.n, m.name,
                                                self.window, up))
            if m.held("hung", since, end):
                self.checked["hung"] += 1
                if stale != 1.0:
                    fail("scrape %d: %s hung for %.1f s and more, "
                         "qmigrate_vm_stale %s" % (self.n, m.name,
                                                   self.window, stale))
            mem = got.get(("qmigrate_vm_memory_domain_bytes", m.name))
            if up == 1.0 and mem is not None:
                self.checked["memory"] += 1
                if mem != m.memory:
                    fail("scrape %d: %s is up with memory %d, it has %d"
                         % (self.n, m.name, mem, m.memory))
        return got


async def once(a, cmd, env, n, monitors):
    """One `exporter --once` amid the fuzz: exit 0 within --once-bound
    seconds (b475dc5 segfaulted on a monitor it could not reach), its
    metrics valid, a qmigrate_vm_up for every --vm."""
    start = now()
    p = await asyncio.create_subprocess_exec(
        *cmd, stdin=asyncio.subprocess.DEVNULL,
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
        env=env)
    try:
        out, err = await asyncio.wait_for(p.communicate(), a.once_bound)
    except asyncio.TimeoutError:
        p.kill()
        await p.wait()
        fail("exporter --once %d: no exit within %.0f s" % (n, a.once_bound))
        return None
    took = now() - start
    if p.returncode != 0:
        fail("exporter --once %d: %s: %s"
             % (n, "exit %d" % p.returncode if p.returncode > 0 else
                "killed by signal %d" % -p.returncode,
                err.decode(errors="replace")[-1500:]))
        return took
    for check in (["promtool", "check", "metrics"], [a.lint, "qmigrate_"]):
        rc, why = await run(check, out)
        if rc != 0:
            fail("exporter --once %d: %s: %s" % (n, check[0], why[:300]))
    got = parse(out.decode(errors="replace"))
    for m in monitors:
        if not m.in_dir and ("qmigrate_vm_up", m.name) not in got:
            fail("exporter --once %d: no qmigrate_vm_up for %s"
                 % (n, m.name))
    return took


async def main():
    p = argparse.ArgumentParser()
    p.add_argument("--seed", type=int, required=True)
    p.add_argument("--qmigrate", required=True)
    p.add_argument("--lint", required=True)
    p.add_argument("--dir", required=True, help="sockets and kept files")
    p.add_argument("--real", action="append", default=[])
    p.add_argument("--fakes", type=int, default=10)
    p.add_argument("--in-dir", type=int, default=4)
    p.add_argument("--duration", type=float, default=35)
    p.add_argument("--interval", type=float, default=0.3)
    p.add_argument("--vm-timeout", type=float, default=0.5)
    p.add_argument("--slack", type=float, default=1.5)
    p.add_argument("--scrape-bound", type=float, default=2.0)
    p.add_argument("--once-every", type=float, default=3.0)
    p.add_argument("--once-bound", type=float, default=15.0)
    a = p.parse_args()
    a.keep = a.dir
    rng = random.Random(a.seed)
    print("exporter-fuzz: seed %d (QMIGRATE_FUZZ_SEED=%d reruns this "
          "schedule)" % (a.seed, a.seed), flush=True)

    reals = []
    for spec in a.real:
        name, rest = spec.split("=", 1)
        mon, spare, pidfile = rest.split(",")
        with open(pidfile) as f:
            pid = int(f.read())
        replies = await spare_replies(spare, 10)
        mem = replies["query-memory-size-summary"]["return"]
        reals.append((name, mon, pid, replies,
                      mem["base-memory"] + mem.get("plugged-memory", 0)))
    if not reals:
        print("exporter-fuzz: at least one --real QEMU", file=sys.stderr)
        return 2
    replies = reals[0][3]

    vmdir = os.path.join(a.dir, "vms")
    os.makedirs(vmdir, exist_ok=True)
    monitors, fakes = [], []
    for i in range(a.fakes):
        in_dir = i < a.in_dir
        name = "fake%d" % i
        path = os.path.join(vmdir if in_dir else a.dir, name + ".qmp")
        f = Fake(name, path, random.Random(rng.random()), replies,
                 (i + 1) << 26, a.vm_timeout)
        f.in_dir = in_dir
        await f.listen()
        monitors.append(f)
        fakes.append(f)
    for name, mon, pid, _, mem in reals:
        r = Real(name, mon, pid, random.Random(rng.random()), mem)
        r.in_dir = False
        monitors.append(r)

    cmd = [a.qmigrate, "exporter", "--listen", "127.0.0.1:0",
           "--interval", str(a.interval), "--vm-timeout", str(a.vm_timeout),
           "--vm-dir", vmdir]
    for m in monitors:
        if not m.in_dir:
            cmd += ["--vm", "%s=%s" % (m.name, m.path)]
    # No QMP trace of the exporter: the conformance check (tests/lib.sh)
    # would replay the fakes' sessions as real QEMU's.
    env = dict(os.environ)
    env.pop("QMIGRATE_QMP_TRACE", None)
    errpath = os.path.join(a.dir, "exporter.err")
    err = open(errpath, "wb")
    exporter = await asyncio.create_subprocess_exec(
        *cmd, stdin=asyncio.subprocess.DEVNULL,
        stdout=asyncio.subprocess.DEVNULL, stderr=err, env=env)
    port = None
    deadline = now() + 20
    while port is None and now() < deadline:
        with open(errpath, errors="replace") as f:
            m = re.search(r"listening on 127\.0\.0\.1:(\d+)$", f.read(), re.M)
        if m:
            port = int(m.group(1))
        elif exporter.returncode is not None:
            break
        else:
            await asyncio.sleep(0.05)  # polling its log: no event to wait on
    if port is None:
        fail("the exporter is not listening within 20 s: %s"
             % open(errpath, errors="replace").read()[-500:])
        exporter.kill()
        return 1
    print("exporter-fuzz: exporter pid %d on port %d, %d fakes (%d in "
          "--vm-dir), %d real QEMUs" % (exporter.pid, port, len(fakes),
                                        a.in_dir, len(reals)), flush=True)

    warmup = 3.0
    weights = (30, 30, 15, 15, 10)
    plans = [schedule(m.rng, a.duration, warmup, MODES, weights)
             for m in fakes]
    # Real QEMUs hang (SIGSTOP) between healthy phases; the last one dies
    # at the end of the fuzz (SIGKILL: a crashed QEMU).
    for m in monitors[len(fakes):]:
        plans.append(schedule(m.rng, a.duration, warmup,
                              ("healthy", "hung"), (60, 40)))
    final_dead = {m.name for i, m in enumerate(fakes) if i % 3 == 1}
    final_dead.add(monitors[-1].name)
    for m, plan in zip(monitors, plans):
        if m.name in final_dead:
            plan[-1] = (a.duration, "dead-stale" if m.in_dir or
                        isinstance(m, Real) else "dead-gone")
        print("exporter-fuzz: schedule %s: %s" % (m.name, " ".join(
            "%.1f:%s" % (t, mo) for t, mo in plan)), flush=True)

    scraper = Scraper(a, port, monitors, exporter)
    once_cmd = [a.qmigrate, "exporter", "--once", "--vm-timeout",
                str(a.vm_timeout), "--vm-dir", vmdir] + [
                    w for m in monitors if not m.in_dir
                    for w in ("--vm", "%s=%s" % (m.name, m.path))]
    onces, once_took = [], []
    t0 = now()
    drivers = [asyncio.ensure_future(drive(m, plan, t0))
               for m, plan in zip(monitors, plans)]
    try:
        while now() < t0 + a.duration and len(FAILS) < 20:
            if now() > t0 + warmup + len(onces) * a.once_every:
                onces.append(asyncio.ensure_future(
                    once(a, once_cmd, env, len(onces), monitors)))
            s = await scraper.scrape()
            if s is None:
                if exporter.returncode is not None:
                    break
                continue
            await scraper.check(*s)
        await asyncio.gather(*drivers)
        once_took = [t for t in await asyncio.gather(*onces)
                     if t is not None]

        # The end: survivors healthy, the final dead down.
        settle = now() + 40
        while not FAILS:
            s = await scraper.scrape()
            if s is None:
                break
            got = await scraper.check(*s)
            late = []
            for m in monitors:
                up = got.get(("qmigrate_vm_up", m.name))
                stale = got.get(("qmigrate_vm_stale", m.name))
                if m.name in final_dead:
                    if up != down_value(m, m.mode):
                        late.append("%s up=%s" % (m.name, up))
                elif up != 1.0 or stale != 0.0:
                    late.append("%s up=%s stale=%s" % (m.name, up, stale))
            if not late:
                print("exporter-fuzz: settled %.1f s after the fuzz: "
                      "every survivor up and fresh, %s down"
                      % (now() - t0 - a.duration,
                         " ".join(sorted(final_dead))), flush=True)
                break
            if now() > settle:
                fail("40 s after the fuzz: %s" % ", ".join(late))
                break
            await asyncio.sleep(0.2)  # the next scrape; no event to wait on
    finally:
        for d in drivers:
            d.cancel()
        for m in monitors:
            if isinstance(m, Real) and m.mode == "hung":
                os.kill(m.pid, signal.SIGCONT)

    if exporter.returncode is None:
        exporter.send_signal(signal.SIGTERM)
        try:
            rc = await asyncio.wait_for(exporter.wait(), 20)
        except asyncio.TimeoutError:
            exporter.kill()
            rc = await exporter.wait()
            fail("the exporter did not exit within 20 s of SIGTERM")
        if rc != 0:
            fail("the exporter exited %d after SIGTERM" % rc)
    err.close()
    log = open(errpath, errors="replace").read()
    for bad in ("AddressSanitizer", "LeakSanitizer", "runtime error:",
                "UndefinedBehaviorSanitizer"):
        if bad in log:
            i = log.index(bad)
            fail("the exporter's stderr: %s" % log[max(0, i - 200):i + 1500])
            break
    if len(once_took) < 5:
        fail("only %d exporter --once ran" % len(once_took))
    counts = {}
    for f in fakes:
        for k, v in f.counts.items():
            counts[k] = counts.get(k, 0) + v
    print("exporter-fuzz: %d scrapes, the slowest %.0f ms (bound %.0f ms); "
          "%d exporter --once, the slowest %.1f s; "
          "checked %d dead, %d hung, %d memory figures; fakes did %s"
          % (scraper.n, scraper.worst * 1000, a.scrape_bound * 1000,
             len(once_took), max(once_took, default=0),
             scraper.checked["dead"], scraper.checked["hung"],
             scraper.checked["memory"],
             ", ".join("%s %d" % kv for kv in sorted(counts.items()))),
          flush=True)
    if scraper.checked["dead"] < 10 or scraper.checked["hung"] < 5 or \
       scraper.checked["memory"] < 10:
        fail("too few checks made for the fuzz to mean anything: %s"
             % scraper.checked)
    return 1 if FAILS else 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
