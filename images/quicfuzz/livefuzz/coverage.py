"""State coverage: which frame types the server accepted, or closed on (and with which code),
in which connection state — during the handshake (Initial and Handshake packets) or once
established (1-RTT). A first-seen (state, frame, answer) or (frame, next frame, kind of answer)
keeps its input in the corpus."""
from . import rules, session, wire

STATE = {"initial": "handshake", "handshake": "handshake", "1rtt": "established"}
NAMES = {v: k for k, v in wire.FRAME_TYPES.items()}


class Coverage:
    def __init__(self):
        self.table = {}  # "state frame" -> {"accepted": n, "closed": {code: n}}
        self.keys = set()

    def add(self, inp: dict, out: dict) -> bool:
        """Counts one input's answer; True when it covered something new."""
        new = False
        sig = session.signature(out)
        frames = [(STATE[e], wire.frame_name(f), f) for e, f in rules.ordered(inp)]
        if sig == "alive":  # every packet that carried the input acknowledged, the connection kept
            for state, name, f in frames:
                new |= self._count(state, self._detail(name, f), "accepted")
        elif sig == "dropped":  # kept the connection but discarded a packet of the input
            for state, name, f in frames:
                new |= self._count(state, self._detail(name, f), "dropped")
        elif out.get("close") and not out["close"]["app"] and out["close"]["frame_type"] is not None:
            # a transport close names the frame type it closed on (RFC 9000 §19.19)
            ft = out["close"]["frame_type"]
            name = "STREAM" if 0x08 <= ft <= 0x0F else NAMES.get(ft, "0x%x" % ft if ft < 1 << 16 else "frame type past 0xffff")
            state = next((s for s, n, _ in frames if n == name), "established")
            new |= self._count(state, name, sig)
        elif out.get("close"):
            new |= self._count("established", "h3/qpack", sig)
        # consecutive frames with the answer's kind (not its exact code: that would keep nearly
        # every input, and the (state, frame, code) triples above already key on codes)
        kind = sig.split(":")[0]
        pairs = {(a[1], b[1]) for a, b in zip(frames, frames[1:])}
        for a, b in pairs:
            k = ("pair", a, b, kind)
            if k not in self.keys:
                self.keys.add(k)
                new = True
        return new

    def _detail(self, name, f):
        if f.get("t") == "STREAM" and "h3" in f:
            st = f["h3"].get("stream_type")
            return "STREAM(h3%s)" % ("" if st is None else " type 0x%x" % st)
        return name

    def _count(self, state, name, answer) -> bool:
        row = self.table.setdefault(state + " " + name, {"accepted": 0, "closed": {}})
        if answer == "accepted":
            row["accepted"] += 1
        else:
            row["closed"][answer] = row["closed"].get(answer, 0) + 1
        k = (state, name, answer)
        if k in self.keys:
            return False
        self.keys.add(k)
        return True

    def summary(self) -> dict:
        return {"entries": self.table, "keys": len(self.keys)}
