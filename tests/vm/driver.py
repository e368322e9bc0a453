#!/usr/bin/env python3
# SPDX-License-Identifier: MIT OR Apache-2.0
"""The host's side of tests/vm/run.sh (standard library only).

  driver.py cpio DIR OUT        an initramfs (newc) of DIR
  driver.py scenario ...        one scenario: boot, snapshot, restores, verdicts

A scenario boots the guest ("orig"), has every front end draw, snapshots it
(QMP stop; migrate to "exec:cat > snap1"), then lets the original run on
(cont): what it draws after that is the snapshot's own continuation, since
nothing tells it of a restore. Clone "a" is restored from snap1 (the same
command line plus -incoming "exec:cat snap1", then cont), draws, is
snapshotted in turn (snap2) and runs on ("a-cont", snap2's continuation);
clone "b" is restored from snap1 and draws; clone "c" from snap2 (a chain).
After each snapshot point a copy first drops what the CLI had in flight
(agent.c, "skip"), then draws. Every word compared was drawn after the
snapshot point it follows.

Verdicts, per front end, over the words drawn after the snapshot points:
  differ        no two of orig, a, b, a-cont, c share a word
  repeats       a and b share words, each shares words with orig (snap1's
                continuation), and c with a-cont (snap2's): every copy
                continues the snapshot's stream
  clones-alike  a and b share words, and no copy shares a word with its
                snapshot's continuation: the restore was seen and the state
                reseeded, from sources that gave both clones the same bytes
  mixed         anything else (the pairs that share words are listed)
An expected verdict may name alternatives: "clones-alike|differ".
"""

import argparse
import json
import os
import re
import shutil
import socket
import subprocess
import sys
import time

# A program with several channels (agent.c) gives each as PROGRAM.CHANNEL;
# an expected verdict named by the program holds for each of its channels.
FRONT_ENDS = ("c", "cli", "go-cgo", "go-pure", "openssl", "openssl-default",
              "java-jni.securerandom", "java-jni.shakerandom",
              "java-pure.securerandom", "java-pure.shakerandom",
              "python.token_bytes", "python.random", "python.numpy",
              "js.randomBytes", "js.random", "js.fill64k", "rust.rng", "rust.getrandom")
WORDS_PER_DRAW = 8
DRAWS = 2  # after each snapshot point, per copy


def cpio(src, out):
    """Writes DIR as a newc archive, owned by root, in a stable order."""
    entries = []
    for top, dirs, files in os.walk(src):
        dirs.sort()
        for name in sorted(dirs) + sorted(files):
            entries.append(os.path.join(top, name))
    with open(out, "wb") as f:
        ino = 1

        def put(name, mode, data):
            nonlocal ino
            name_b = name.encode() + b"\0"
            fields = [ino, mode, 0, 0, 1, 0, len(data), 0, 0, 0, 0, len(name_b), 0]
            f.write(b"070701" + b"".join(b"%08x" % v for v in fields) + name_b)
            f.write(b"\0" * (-(110 + len(name_b)) % 4) + data + b"\0" * (-len(data) % 4))
            ino += 1

        for path in entries:
            rel = os.path.relpath(path, src)
            st = os.lstat(path)
            if os.path.islink(path):
                put(rel, 0o120777, os.readlink(path).encode())
            elif os.path.isdir(path):
                put(rel, 0o40755, b"")
            else:
                with open(path, "rb") as g:
                    put(rel, 0o100000 | (st.st_mode & 0o777), g.read())
        put("TRAILER!!!", 0, b"")


class Failure(Exception):
    pass


def connect_unix(path, timeout=30):
    deadline = time.monotonic() + timeout
    while True:
        try:
            s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            s.connect(path)
            return s
        except OSError:
            s.close()
            if time.monotonic() > deadline:
                raise Failure(f"cannot connect to {path}")
            time.sleep(0.05)


class Lines:
    """Reads lines from a socket with a deadline."""

    def __init__(self, sock, log=None):
        self.sock, self.buf, self.log = sock, b"", log

    def line(self, timeout):
        deadline = time.monotonic() + timeout
        while b"\n" not in self.buf:
            left = deadline - time.monotonic()
            if left <= 0:
                raise Failure("timed out waiting for the guest")
            self.sock.settimeout(left)
            try:
                got = self.sock.recv(65536)
            except socket.timeout:
                continue
            if not got:
                raise Failure("the connection closed")
            self.buf += got
        line, self.buf = self.buf.split(b"\n", 1)
        text = line.decode(errors="replace").rstrip("\r")
        if self.log:
            self.log.write(text + "\n")
        return text


class VM:
    def __init__(self, args, name, incoming=None):
        self.name, self.work = name, args.work
        w = lambda suffix: os.path.join(args.work, f"{name}.{suffix}")  # noqa: E731
        self.qmp_path, self.data_path = w("qmp"), w("data")
        for p in (self.qmp_path, self.data_path):
            if os.path.exists(p):
                os.unlink(p)
        self.console = w("console.log")
        cmd = [args.loader, "--library-path", args.libs, args.qemu]
        for fw in args.firmware:
            cmd += ["-L", fw]
        cmd += ["-accel", "tcg", "-machine", "q35", "-cpu", args.cpu, "-smp", "1", "-m", args.memory,
                "-nodefaults", "-no-user-config", "-display", "none", "-nic", "none", "-no-reboot",
                "-kernel", args.kernel, "-initrd", args.initrd,
                "-append", "console=ttyS0 loglevel=6 panic=-1",
                "-chardev", f"file,id=con,path={self.console}", "-serial", "chardev:con",
                "-chardev", f"socket,id=data,path={self.data_path},server=on,wait=off",
                "-serial", "chardev:data",
                "-qmp", f"unix:{self.qmp_path},server=on,wait=off"]
        for device in args.devices.split(","):
            if device == "vmclock":
                cmd += ["-device", "vmclock"]
            elif device == "vmgenid":
                cmd += ["-device", "vmgenid,guid=auto"]
        if args.disk:
            cmd += ["-drive", f"file={args.disk},if=virtio,format=raw,readonly=on"]
        if incoming:
            cmd += ["-incoming", f"exec:cat {incoming}"]
        self.stderr = open(w("qemu.log"), "w")
        self.proc = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=self.stderr,
                                     stderr=self.stderr)
        self.transcript = open(w("data.log"), "w")
        self.data = Lines(connect_unix(self.data_path), self.transcript)
        self.qmp = Lines(connect_unix(self.qmp_path))
        self.qmp.line(30)  # the greeting
        self.command("qmp_capabilities")

    def command(self, name, arguments=None):
        msg = {"execute": name}
        if arguments is not None:
            msg["arguments"] = arguments
        self.qmp.sock.sendall(json.dumps(msg).encode() + b"\n")
        while True:
            reply = json.loads(self.qmp.line(60))
            if "return" in reply:
                return reply["return"]
            if "error" in reply:
                raise Failure(f"{self.name}: QMP {name}: {reply['error']}")

    def wait_migration(self):
        deadline = time.monotonic() + 120
        while True:
            status = self.command("query-migrate").get("status")
            if status == "completed":
                return
            if status in ("failed", "cancelled"):
                raise Failure(f"{self.name}: migration {status}")
            if time.monotonic() > deadline:
                raise Failure(f"{self.name}: migration still {status}")
            time.sleep(0.1)

    def ask(self, command, timeout=120):
        """Sends one agent command and returns its output lines."""
        tag = command.split()[-1]
        self.data.sock.sendall(command.encode() + b"\n")
        lines = []
        while True:
            line = self.data.line(timeout)
            if line == f"end {tag}":
                return lines
            if line.startswith("error"):
                raise Failure(f"{self.name}: guest: {line}")
            lines.append(line)

    def snapshot(self, path):
        """Stops, saves the state to path, then lets this copy run on."""
        self.command("stop")
        self.command("migrate", {"uri": f"exec:cat > {path}"})
        self.wait_migration()
        self.command("cont")

    def resume(self):
        self.wait_migration()
        if self.command("query-status").get("status") != "running":
            self.command("cont")

    def quit(self):
        try:
            self.command("quit")
        except (Failure, OSError):
            pass
        try:
            self.proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        self.transcript.close()
        self.stderr.close()

    def kill(self):
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()


def words(lines):
    got = {fe: [] for fe in FRONT_ENDS}
    for line in lines:
        m = re.fullmatch(r"w (\S+) ([0-9a-f]{16})", line)
        if m and m.group(1) in got:
            got[m.group(1)].append(m.group(2))
    return got


def draws(vm, label):
    """Drops the CLI's in-flight text, then draws; returns the words."""
    vm.ask(f"skip {label}-skip")
    lines = []
    for i in range(DRAWS):
        lines += vm.ask(f"draw {WORDS_PER_DRAW} {label}-{i}")
    got = words(lines)
    for fe in FRONT_ENDS:
        if len(got[fe]) != DRAWS * WORDS_PER_DRAW:
            raise Failure(f"{vm.name}: {fe} gave {len(got[fe])} words")
    return got, [line for line in lines if line.startswith("v ")]


def verdict(streams):
    """streams: copy name -> set of words. Returns (verdict, shared pairs)."""
    names = list(streams)
    shared = {(x, y) for i, x in enumerate(names) for y in names[i + 1:]
              if streams[x] & streams[y]}

    def s(x, y):
        return (x, y) in shared or (y, x) in shared

    if not shared:
        return "differ", shared
    if s("a", "b") and s("orig", "a") and s("orig", "b") and s("c", "a-cont"):
        return "repeats", shared
    if shared == {("a", "b")}:
        return "clones-alike", shared
    return "mixed(" + ",".join(f"{x}~{y}" for x, y in sorted(shared)) + ")", shared


def scenario(args):
    shutil.rmtree(args.work, ignore_errors=True)
    os.makedirs(args.work)
    expect = dict(item.split("=", 1) for item in args.expect.split())
    report = open(os.path.join(args.work, "report.txt"), "w")
    snap1, snap2 = os.path.join(args.work, "snap1"), os.path.join(args.work, "snap2")
    streams = {fe: {} for fe in FRONT_ENDS}
    facts = {}
    vms = []

    def info(vm, label):
        lines = vm.ask(f"info {label}")
        report.write(f"[{vm.name} {label}]\n" + "".join(x + "\n" for x in lines))
        return lines

    def record(name, got, vlines):
        for fe in FRONT_ENDS:
            streams[fe][name] = set(got[fe])
        report.write(f"[{name} words]\n" + "".join(x + "\n" for x in vlines))
        report.write(json.dumps(got) + "\n")

    start = time.monotonic()
    try:
        orig = VM(args, "orig")
        vms.append(orig)
        while orig.data.line(300) != "ready":
            pass
        boot = info(orig, "boot")
        facts["boot"] = boot
        # The CLI refills (and so reads its clock) only when drained: without
        # this skip its last seed is from boot, and its 60 s reseed
        # (src/policy.h), which reads RDRAND, lands in the first refill
        # after the restore once the guest has been up 60 s longer than
        # that, so that even the controls' clones differ through it.
        orig.ask("skip pre")
        orig.ask(f"draw {WORDS_PER_DRAW} pre")
        orig.snapshot(snap1)
        got, vlines = draws(orig, "orig")
        record("orig", got, vlines)
        orig.quit()

        a = VM(args, "a", incoming=snap1)
        vms.append(a)
        a.resume()
        after = info(a, "restored")
        got, vlines = draws(a, "a")
        record("a", got, vlines)
        facts["a"] = after + info(a, "later")
        a.snapshot(snap2)
        got, vlines = draws(a, "a-cont")
        record("a-cont", got, vlines)
        a.quit()

        for name, snap in (("b", snap1), ("c", snap2)):
            vm = VM(args, name, incoming=snap)
            vms.append(vm)
            vm.resume()
            facts[name] = info(vm, "restored")
            got, vlines = draws(vm, name)
            record(name, got, vlines)
            facts[name] += info(vm, "later")
            vm.quit()
    except (Failure, OSError, ValueError) as e:
        for vm in vms:
            vm.kill()
        report.write(f"error: {e}\n")
        report.close()
        print(f"scenario {args.name}: error: {e} (see {args.work}) FAIL")
        return 1

    results, ok = [], True
    for fe in FRONT_ENDS:
        v, _ = verdict(streams[fe])
        want = expect.get(fe, expect.get(fe.split(".")[0], ""))
        results.append(f"{fe}={v}")
        if v not in want.split("|"):
            ok = False
            results[-1] += f"(expected {want})"

    def pick(lines, pattern):
        for line in lines:
            m = re.search(pattern, line)
            if m:
                return m.group(1)
        return "?"

    b = facts["boot"]
    watches = "watches " + " ".join(
        f"{fe}={pick(b, pattern)}" for fe, pattern in (
            ("c", r"^i c watches_vm_generation=(\d)"),
            ("go-cgo", r"^i go-cgo .*watches_vm_generation=(\w+)"),
            ("go-pure", r"^i go-pure .*watches_vm_generation=(\w+)"),
            ("java-jni", r"^i java-jni .*watches_vm_generation=(\w+)"),
            ("java-pure", r"^i java-pure .*watches_vm_generation=(\w+)"),
            ("python", r"^i python .*watches_vm_generation=(\w+)"),
            ("js", r"^i js .*watches_vm_generation=(\w+)")))
    if "vmclock absent" in "\n".join(b):
        page = "no vmclock"
    else:
        marker = pick(b, r"disruption_marker=(\d+)")
        counter = pick(b, r"vm_generation_counter=(\d+)")
        for n in ("a", "b", "c"):
            marker += "," + pick(facts[n], r"disruption_marker=(\d+)")
            counter += "," + pick(facts[n], r"vm_generation_counter=(\d+)")
        flags = pick(b, r"flags=(0x[0-9a-f]+|0)")
        poll = pick(facts["a"], r"revents=(\w+)")
        page = f"flags {flags} marker {marker} counter {counter} poll {poll}"
    uevents = sum(1 for n in ("a", "b", "c") for line in facts[n] if line.startswith("i uevent"))
    reseeded = 0
    for n in ("a", "b", "c"):
        with open(os.path.join(args.work, f"{n}.console.log"), errors="replace") as f:
            reseeded += "crng reseeded due to virtual machine fork" in f.read()
    cpu = "rdrand={} rdseed={}".format(pick(b, r"rdrand=(\d)"), pick(b, r"rdseed=(\d)"))
    report.write(f"time: {time.monotonic() - start:.1f} s\n")
    report.close()
    if ok:  # about 120 MB each; a failed scenario keeps them
        for snap in (snap1, snap2):
            os.unlink(snap)
    print(f"scenario {args.name}: [{cpu}; {page}; uevents {uevents}; kernel reseeded on "
          f"restore {reseeded}/3; {watches}] {' '.join(results)} "
          f"({time.monotonic() - start:.0f} s"
          f"{'' if ok else ', see ' + os.path.join(args.work, 'report.txt')}) "
          f"{'ok' if ok else 'FAIL'}")
    return 0 if ok else 1


def main():
    p = argparse.ArgumentParser()
    sub = p.add_subparsers(dest="what", required=True)
    c = sub.add_parser("cpio")
    c.add_argument("src")
    c.add_argument("out")
    s = sub.add_parser("scenario")
    for opt in ("name", "work", "loader", "libs", "qemu", "kernel", "initrd", "cpu", "devices",
                "expect"):
        s.add_argument("--" + opt, required=True)
    s.add_argument("--firmware", action="append", default=[])
    s.add_argument("--disk", default="")
    s.add_argument("--memory", default="256M")
    args = p.parse_args()
    if args.what == "cpio":
        cpio(args.src, args.out)
        return 0
    return scenario(args)


if __name__ == "__main__":
    sys.exit(main())
