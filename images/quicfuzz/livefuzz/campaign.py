"""A campaign: learn the server's limits, check it serves, answer the shared seeds (the
differential oracle compares those answers across servers), then mutate and send until the time
is up — judging every answer by the RFC oracle, checking liveness on a second connection every
few inputs, keeping inputs that covered something new."""
import json
import os
import random
import signal
import sys
import time

from . import coverage, grammar, mutate, probe, rules, session, store, wire

CODES_SEEN_AS = {"app": "application", "transport": "transport"}


class Campaign:
    def __init__(self, cfg: dict, out_dir: str):
        self.cfg = cfg
        self.addr = (cfg.get("server_addr") or cfg["server"], int(cfg.get("port", 443)))
        self.name = cfg["server"]
        self.alpn = cfg["alpn"]
        self.store = store.Store(out_dir)
        self.out_dir = out_dir
        self.keylog = open(os.environ.get("SSLKEYLOGFILE", os.path.join(out_dir, "keys.log")), "a")
        self.rules = {r["id"]: r for r in cfg["rules"]}
        self.rng = random.Random(int(cfg.get("seed", 1)))
        self.cov = coverage.Coverage()
        self.stats = {"inputs": 0, "seeds": 0, "signatures": {}, "rules": {}, "liveness_checks": 0,
                      "findings": 0, "corpus": 0, "started": time.time(), "alpn": self.alpn}
        self.corpus = []
        self.stop = False
        self.seq = 0
        self.liveness_failed = ""

    # --- one input ---
    def send(self, inp: dict) -> dict:
        self.seq += 1
        self.store.before_send(self.seq, inp)
        out = session.run(inp, self.addr, self.name, self.keylog, settle=float(self.cfg.get("settle_s", 1.5)))
        self.stats["inputs"] += 1
        sig = session.signature(out)
        self.stats["signatures"][sig] = self.stats["signatures"].get(sig, 0) + 1
        out["judged"] = self.judge(inp, out)
        self.check_close_frame_type(inp, out)
        return out

    def check_close_frame_type(self, inp: dict, out: dict):
        """RFC 9000 §19.19: a transport CONNECTION_CLOSE's Frame Type is the type of the frame
        that triggered the error, 0 when unknown. A value that is no frame type at all (neither
        RFC 9000's, DATAGRAM's, nor one the input sent as raw bytes) is garbage on the wire."""
        c = out.get("close")
        if not c or c["app"] or c.get("frame_type") is None:
            return
        if any(f["t"] == "RAW" for _, f in rules.ordered(inp)):
            return  # raw bytes may be read as any frame type once a length in them is off
        st = self.stats.setdefault("close_frame_type", {"checked": 0, "bogus": 0})
        st["checked"] += 1
        ft = c["frame_type"]
        if ft in wire.KNOWN_FRAME_TYPES:
            return
        st["bogus"] += 1
        d = self.store.finding("close-frame-type", "not a frame type", {
            "section": "RFC 9000 §19.19", "observed": "CONNECTION_CLOSE 0x%x with Frame Type 0x%x, which is no frame type the client sent or QUIC defines" % (c["code"], ft),
            "must": "Frame Type: A variable-length integer encoding the type of frame that triggered the error. A value of 0 (equivalent to the mention of the PADDING frame) is used when the frame type is unknown.",
            "target": self.cfg.get("target", ""), "campaign": self.cfg.get("campaign", ""), "alpn": self.alpn}, [inp])
        st.setdefault("first", os.path.basename(d))

    def judge(self, inp: dict, out: dict):
        """The RFC oracle: the rules the input breaks, and whether the server closed with a
        code one of them requires. Held counts for the first rule only when the code is its own
        (a code only a later violation allows judges nothing about the first)."""
        srv = rules.Server(out.get("params"), out.get("settings"), inp.get("alpn", "h3"))
        status, found = rules.judge_all(inp, srv)
        if status != rules.VIOLATION:
            return None
        rule, idx, name = found[0]
        sent = list(rules.ordered(inp))
        name = "%s in a %s packet" % (wire.describe(sent[idx][1]), sent[idx][0])
        epochs = [e for e, _ in sent]
        if epochs[idx] == "1rtt" and not out["handshake"]:
            return None  # the frame was never sent
        if out.get("local_close"):
            return None  # our own stack closed first: the server's answer is unknown
        observed = session.signature(out)
        allowed = set()
        for other, _, _ in found:
            r = self.rules[other]
            allowed |= {("application", c) for c in r.get("application", [])} | {("transport", c) for c in r.get("transport", [])}
        code = None
        if out.get("close"):
            code = ("application" if out["close"]["app"] else "transport", out["close"]["code"])
        r = self.rules[rule]
        own = code is not None and code[1] in r.get(code[0], [])
        if code in allowed and not own:
            return {"rule": rule, "held": None, "frame": name, "index": idx, "observed": observed}
        held = own
        st = self.stats["rules"].setdefault(rule, {"tried": 0, "held": 0, "broken": 0})
        st["tried"] += 1
        st["held" if held else "broken"] += 1
        if not held:
            answers = st.setdefault("answers", {})
            answers[observed] = answers.get(observed, 0) + 1
        v = {"rule": rule, "held": held, "frame": name, "index": idx, "observed": observed}
        if not held:
            also = ["%s (frame %d, %s)" % (o, i, n) for o, i, n in found[1:]]
            d = self.store.finding("rfc", "%s %s" % (rule, observed), {
                "rule": rule, "section": r["section"], "must": r["must"], "expected": r.get("expected", ""),
                "observed": observed, "close": out.get("close"), "frame": name, "frame_index": idx,
                "also_broken": also, "target": self.cfg.get("target", ""), "campaign": self.cfg.get("campaign", ""),
                "alpn": self.alpn}, [inp])
            st.setdefault("first_broken", os.path.basename(d))
        return v

    # --- liveness (a second, well-behaved connection) ---
    def alive(self) -> str:
        self.stats["liveness_checks"] += 1
        why = probe.fetch(self.addr, self.name, self.alpn, self.cfg["path"], self.cfg["sha256"], self.keylog)
        if why:
            why2 = probe.fetch(self.addr, self.name, self.alpn, self.cfg["path"], self.cfg["sha256"], self.keylog)
            if why2:
                return why2
        return ""

    def liveness_finding(self, why: str):
        self.liveness_failed = why
        self.store.finding("liveness", "stopped serving", {
            "observed": why, "target": self.cfg.get("target", ""), "campaign": self.cfg.get("campaign", ""), "alpn": self.alpn,
            "after_input": self.seq}, self.store.recent())

    # --- the campaign ---
    def run(self, duration: float):
        t_end = time.monotonic() + duration
        base = grammar.base_input(grammar.Target(self.alpn, self.name, self.cfg["path"]))
        first = session.run(base, self.addr, self.name, self.keylog)
        if not first["handshake"]:
            print("fuzz: the server does not complete a handshake: %s" % session.signature(first), flush=True)
            return 1
        why = self.alive()
        if why:
            print("fuzz: the server does not serve %s before fuzzing: %s" % (self.cfg["path"], why), flush=True)
            return 1
        target = grammar.Target(self.alpn, self.name, self.cfg["path"], first["params"])
        self.stats["server_params"] = first["params"]
        gen = grammar.Generator(self.rng, target)
        mut = mutate.Mutator(self.rng, gen)
        self.corpus = [base]
        for path in sorted(self._files(self.cfg.get("seeds_dir"))) + sorted(self._files(self.cfg.get("corpus_dir"))):
            try:
                inp = store.read_json(path)
            except (OSError, ValueError):
                continue
            if inp.get("alpn") != self.alpn:
                continue
            out = self.send(inp)
            if path.startswith(self.cfg.get("seeds_dir") or "\0"):
                self.stats["seeds"] += 1
                self.store.answer({"seed": os.path.basename(path), "signature": session.signature(out), "judged": out["judged"]})
            self.cov.add(inp, out)
            self.corpus.append(inp)
            if self.after(out):
                return 0
        last_report = time.monotonic()
        every = int(self.cfg.get("liveness_every", 25))
        while not self.stop and time.monotonic() < t_end:
            parent = self.rng.choice(self.corpus[-200:] if self.rng.random() < 0.7 else self.corpus)
            inp, _ = mut.mutate(parent, self.corpus)
            out = self.send(inp)
            if self.cov.add(inp, out):
                self.corpus.append(inp)
                self.store.keep(inp)
                self.stats["corpus"] = len(self.corpus)
            if self.after(out, every):
                break
            if time.monotonic() - last_report >= 10:
                last_report = time.monotonic()
                self.progress()
                self.write_stats()
        if not self.liveness_failed:
            why = self.alive()
            if why:
                self.liveness_finding(why)
        self.progress()
        self.write_stats()
        return 0

    def after(self, out: dict, every: int = 0) -> bool:
        """True when the campaign must end: the server stopped serving a second connection."""
        suspicious = session.signature(out) in ("silent", "no-handshake")
        if suspicious or (every and self.stats["inputs"] % every == 0):
            why = self.alive()
            if why:
                self.liveness_finding(why)
                return True
        return False

    def _files(self, d):
        if not d or not os.path.isdir(d):
            return []
        return [os.path.join(d, n) for n in os.listdir(d) if n.endswith(".json")]

    def progress(self):
        el = time.time() - self.stats["started"]
        n = self.stats["inputs"]
        nf = len(os.listdir(os.path.join(self.out_dir, "findings")))
        print("fuzz: %4.0f s: %d inputs (%.1f/s), corpus %d, coverage %d, findings %d" % (
            el, n, n / el if el else 0, len(self.corpus), len(self.cov.keys), nf), flush=True)

    def write_stats(self):
        el = time.time() - self.stats["started"]
        s = dict(self.stats, seconds=round(el, 1), inputs_per_second=round(self.stats["inputs"] / el, 2) if el else 0,
                 findings=len(os.listdir(os.path.join(self.out_dir, "findings"))), liveness_failed=self.liveness_failed)
        store.write_json(os.path.join(self.out_dir, "stats.json"), s)
        store.write_json(os.path.join(self.out_dir, "coverage.json"), self.cov.summary())


def replay(cfg: dict, out_dir: str) -> int:
    """Sends each input of the replay folder in order, then checks liveness: what make
    fuzz-repro runs. replay.json says what each input got."""
    c = Campaign(cfg, out_dir)
    inputs = store.read_json(cfg["replay_file"])
    results = []
    for inp in inputs:
        out = c.send(inp)
        results.append({"signature": session.signature(out), "judged": out["judged"], "close": out.get("close"),
                        "handshake": out["handshake"]})
        print("replay: input %d: %s%s" % (len(results), results[-1]["signature"],
                                          "" if not out["judged"] else " (%s %s)" % (out["judged"]["rule"], "held" if out["judged"]["held"] else "BROKEN")), flush=True)
    why = c.alive()
    store.write_json(os.path.join(out_dir, "replay.json"), {"inputs": results, "liveness": why})
    print("replay: liveness after the inputs: %s" % (why or "served"), flush=True)
    return 0


def main(argv) -> int:
    import logging
    logging.basicConfig(level=logging.ERROR)
    logging.getLogger("quic").setLevel(logging.CRITICAL)  # aioquic's own per-connection lines
    if len(argv) != 2:
        print("usage: python3 -m livefuzz <config.json>", file=sys.stderr)
        return 2
    try:
        cfg = store.read_json(argv[1])
        for k in ("mode", "alpn", "server", "path", "sha256", "rules"):
            if k not in cfg:
                raise ValueError("field %s missing" % k)
        unknown = {r["id"] for r in cfg["rules"]} ^ rules.RULE_IDS
        if unknown:
            raise ValueError("rules: ids without a predicate or predicates without a rule: %s" % ", ".join(sorted(unknown)))
    except (OSError, ValueError, KeyError) as e:
        print("livefuzz: %s: %s" % (argv[1], e), file=sys.stderr)
        return 2
    out_dir = cfg.get("out_dir", "/logs/fuzz")
    os.makedirs(out_dir, exist_ok=True)
    if cfg["mode"] == "replay":
        return replay(cfg, out_dir)
    c = Campaign(cfg, out_dir)

    def on_term(signum, frame):
        # docker stop (the cell's fence): the evidence so far is written, then the campaign ends
        c.stop = True
        try:
            c.write_stats()
        finally:
            os._exit(0)
    signal.signal(signal.SIGTERM, on_term)
    return c.run(float(cfg.get("duration_s", 60)))
