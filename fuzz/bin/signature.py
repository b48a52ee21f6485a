#!/usr/bin/env python3
"""signature.py [FILE] — the deduplication key of a crash: sanitizer/libFuzzer error kind plus the top
three frames that belong to the code under test (runtime, libc and harness-driver frames skipped).
Reads a crash report (stderr of the libFuzzer/ASan build) and prints "<id> <kind> | f1 | f2 | f3";
prints nothing and exits 1 when the report holds no crash."""
import hashlib
import re
import sys

KIND_RES = [
    re.compile(r"ERROR: AddressSanitizer: ([\w-]+)(?: on address \S+ .*?(READ|WRITE) of size \d+)?", re.S),
    re.compile(r"ERROR: LeakSanitizer: (detected memory leaks)"),
    re.compile(r"runtime error: (.*?)(?: at | of |\n|$)"),
    re.compile(r"ERROR: libFuzzer: ([\w-]+)"),
    re.compile(r"(ALARM): working on the last Unit for"),
]
FRAME_RE = re.compile(r"^\s*#(\d+) 0x[0-9a-f]+ in (\S+)(?: (\S+))?", re.M)
SKIP_FUNC = re.compile(r"^(__asan|__ubsan|__sanitizer|__interceptor|__lsan|fuzzer::|LLVMFuzzerTestOneInput$|main$|"
                       r"__libc|_start|abort$|raise$|__GI_|__pthread_kill|pthread_kill|malloc$|calloc$|realloc$|free$|"
                       r"__assert_fail|__assert_fail_base|memcpy$|memmove$|memcmp$|strlen$|wl_fm_|__afl)")
SKIP_FILE = re.compile(r"compiler-rt|/libFuzzer/|sanitizer_common|aflpp_driver|libc\.so|libc-start")


def signature(report: str):
    kind = None
    for rx in KIND_RES:
        m = rx.search(report)
        if m:
            kind = " ".join(g for g in m.groups() if g)
            break
    if kind is None:
        return None
    # Only the first stack trace (the crashing access, not the allocation/free stacks below it).
    frames = []
    start = report.find("==ERROR") if "==ERROR" in report else report.find("runtime error")
    for m in FRAME_RE.finditer(report, max(start, 0)):
        if frames and m.group(1) == "0":
            break  # next stack trace
        func, loc = m.group(2), m.group(3) or ""
        if SKIP_FUNC.match(func) or SKIP_FILE.search(loc):
            continue
        frames.append(func)
        if len(frames) == 3:
            break
    sig = " | ".join([kind] + frames)
    return hashlib.sha1(sig.encode()).hexdigest()[:12], sig


def main():
    text = open(sys.argv[1], errors="replace").read() if len(sys.argv) > 1 else sys.stdin.read()
    s = signature(text)
    if not s:
        return 1
    print(f"{s[0]} {s[1]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
