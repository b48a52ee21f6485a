"""The RFC oracle's model against the shared seeds: each seed named after a rule breaks exactly
that rule, the valid ones break none, the unmodelled ones stop the judging; every rule has a
seed. Run: python3 -m unittest discover -s tests (the image build runs it)."""
import random
import unittest

from livefuzz import grammar, mutate, rules, seeds, wire

# seed (without its alpn prefix) -> the rule it must break
WANT = {
    "table3-stream-in-handshake": "frame-not-allowed-in-packet-type",
    "table3-max-data-in-initial": "frame-not-allowed-in-packet-type",
    "unknown-frame-type-0x21": "unknown-frame-type",
    "client-handshake-done": "client-handshake-done",
    "client-new-token": "client-new-token",
    "client-new-token-empty": "client-new-token",
    "stream-on-server-uni": "stream-on-send-only-or-uncreated",
    "stream-on-server-bidi": "stream-on-send-only-or-uncreated",
    "reset-stream-server-uni": "reset-stream-on-send-only",
    "stop-sending-client-uni": "stop-sending-on-receive-only-or-uncreated",
    "stop-sending-uncreated-server-uni": "stop-sending-on-receive-only-or-uncreated",
    "max-stream-data-client-uni": "max-stream-data-on-receive-only-or-uncreated",
    "max-stream-data-uncreated-server-bidi": "max-stream-data-on-receive-only-or-uncreated",
    "stream-data-blocked-server-uni": "stream-data-blocked-on-send-only",
    "stream-over-limit": "stream-limit-exceeded",
    "max-streams-over-2-60": "max-streams-over-2-60",
    "streams-blocked-over-2-60": "streams-blocked-over-2-60",
    "stream-offset-over-2-62": "stream-offset-over-2-62",
    "stream-flow-control": "stream-flow-control-exceeded",
    "new-connection-id-length-21": "new-connection-id-length",
    "new-connection-id-length-0": "new-connection-id-length",
    "new-connection-id-retire-prior-to": "new-connection-id-retire-prior-to",
    "retire-connection-id-never-sent": "retire-connection-id-never-sent",
    "datagram": "datagram-not-negotiated",
    "control-first-frame-not-settings": "h3-control-first-frame-not-settings",
    "second-settings": "h3-second-settings",
    "data-on-control-stream": "h3-frame-not-allowed-on-control-stream",
    "headers-on-control-stream": "h3-frame-not-allowed-on-control-stream",
    "max-push-id-on-request-stream": "h3-control-frame-on-request-stream",
    "settings-on-request-stream": "h3-control-frame-on-request-stream",
    "http2-ping-frame": "h3-reserved-http2-frame-type",
    "push-promise-from-client": "h3-push-promise-from-client",
    "http2-setting-enable-push": "h3-http2-setting",
    "client-push-stream": "h3-client-push-stream",
    "datagram-setting-2": "h3-datagram-setting-value",
    "second-control-stream": "h3-second-critical-stream",
    "second-qpack-encoder-stream": "h3-second-critical-stream",
    "control-stream-fin": "h3-critical-stream-closed",
    "qpack-encoder-stream-fin": "h3-critical-stream-closed",
    "qpack-capacity-2-30": "qpack-capacity-over-maximum",
}


def short(name):
    for p in ("h3-", "hq-interop-"):
        if name.startswith(p):
            return name[len(p):]
    return name


class SeedsTest(unittest.TestCase):
    def test_each_seed_is_judged_as_named(self):
        for name, inp in seeds.all_seeds().items():
            srv = rules.Server({"max_streams_bidi": 100, "max_streams_uni": 100, "max_stream_data_bidi_remote": 1 << 20,
                                "max_stream_data_uni": 1 << 20, "max_data": 1 << 22}, {1: 0, 0x33: 1}, inp["alpn"])
            status, rule, _, frame = rules.judge(inp, srv)
            s = short(name)
            with self.subTest(seed=name):
                if s.startswith("valid"):
                    self.assertEqual((status, rule), (rules.ALLOWED, ""), frame)
                elif s.startswith("unmodelled"):
                    self.assertEqual(status, rules.UNCERTAIN, rule)
                else:
                    self.assertEqual((status, rule), (rules.VIOLATION, WANT[s]))

    def test_every_rule_has_a_seed(self):
        self.assertEqual(set(WANT.values()) | {"new-token-empty"}, rules.RULE_IDS)
        status, found = rules.judge_all(seeds.all_seeds()["h3-client-new-token-empty"], rules.Server({"max_streams_bidi": 100,
            "max_streams_uni": 100, "max_stream_data_uni": 1 << 20, "max_stream_data_bidi_remote": 1 << 20}, {1: 0}))
        self.assertEqual([f[0] for f in found], ["client-new-token", "new-token-empty"])

    def test_a_setting_the_server_does_not_know_is_ignored(self):
        # H3_DATAGRAM = 2 breaks RFC 9297 for a server that speaks it; to one that never sent the
        # setting it is an unknown identifier, which RFC 9114 §7.2.4 says to ignore
        inp = seeds.all_seeds()["h3-datagram-setting-2"]
        params = {"max_streams_bidi": 100, "max_streams_uni": 100, "max_stream_data_uni": 1 << 20, "max_stream_data_bidi_remote": 1 << 20}
        self.assertEqual(rules.judge(inp, rules.Server(params, {1: 0, 0x33: 1}))[:2], (rules.VIOLATION, "h3-datagram-setting-value"))
        # a server that did not send it may know it (nghttp3 refuses 2) or ignore it: not judged
        self.assertEqual(rules.judge(inp, rules.Server(params, {1: 0}))[0], rules.UNCERTAIN)
        self.assertEqual(rules.judge(inp, rules.Server(params, None))[0], rules.UNCERTAIN)

    def test_the_connection_window_counts_every_stream(self):
        params = {"max_streams_bidi": 100, "max_streams_uni": 100, "max_stream_data_bidi_remote": 1 << 20, "max_stream_data_uni": 1 << 20, "max_data": 1000}
        inp = seeds.with_frames("h3", [{"t": "STREAM", "stream_id": 4, "data": "00" * 100, "offset": 900},
                                       {"t": "STREAM", "stream_id": 8, "data": "00" * 100, "offset": 900}])
        self.assertEqual(rules.judge(inp, rules.Server(params, {1: 0}))[0], rules.UNCERTAIN)
        far = seeds.with_frames("h3", [{"t": "STREAM", "stream_id": 4, "data": "00", "offset": 1 << 30}])
        self.assertEqual(rules.judge(far, rules.Server(dict(params, max_stream_data_bidi_remote=1 << 40), {1: 0}))[:2],
                         (rules.VIOLATION, "stream-flow-control-exceeded"))

    def test_the_inputs_own_close_is_never_judged(self):
        inp = seeds.with_frames("h3", [{"t": "APPLICATION_CLOSE", "code": 0, "reason": ""}], epoch="initial")
        self.assertEqual(rules.judge(inp, rules.Server({"max_streams_bidi": 100}, {1: 0}))[0], rules.UNCERTAIN)

    def test_a_server_limit_moves_the_verdict(self):
        # the same frame is no violation for a server that allows that many streams
        inp = seeds.all_seeds()["h3-stream-over-limit"]
        big = rules.Server({"max_streams_bidi": 1 << 20, "max_streams_uni": 3, "max_stream_data_bidi_remote": 1 << 20}, {1: 0})
        self.assertNotEqual(rules.judge(inp, big)[0], rules.VIOLATION)


class JudgeAllTest(unittest.TestCase):
    def test_every_violation_is_collected(self):
        # an HTTP/3 violation, then a transport one: a server may report either
        inp = seeds.all_seeds()["h3-control-stream-fin"]
        inp["packets"].append({"epoch": "1rtt", "frames": [{"t": "HANDSHAKE_DONE"}]})
        status, found = rules.judge_all(inp, rules.Server({"max_streams_bidi": 100, "max_streams_uni": 100,
                                                           "max_stream_data_uni": 1 << 20, "max_stream_data_bidi_remote": 1 << 20}, {1: 0}))
        self.assertEqual(status, rules.VIOLATION)
        self.assertEqual([f[0] for f in found], ["h3-critical-stream-closed", "client-handshake-done"])

    def test_one_frame_may_break_two_rules(self):
        srv = rules.Server({"max_streams_bidi": 100, "max_streams_uni": 3, "max_stream_data_uni": 1 << 20,
                            "max_stream_data_bidi_remote": 1 << 20}, {1: 0})
        for frames, want in [
            ([{"t": "STOP_SENDING", "stream_id": 4 * 1000 + 2, "code": 0}], ["stream-limit-exceeded", "stop-sending-on-receive-only-or-uncreated"]),
            ([{"t": "STREAM", "stream_id": 6, "fin": True, "data": wire.qpack_set_capacity(1 << 30)}], ["h3-critical-stream-closed", "qpack-capacity-over-maximum"]),
        ]:
            inp = seeds.with_frames("h3", frames)
            self.assertEqual([f[0] for f in rules.judge_all(inp, srv)[1]], want)

    def test_a_stream_frame_breaking_two_rules(self):
        srv = rules.Server({"max_streams_bidi": 100, "max_streams_uni": 100, "max_stream_data_uni": 1 << 20,
                            "max_stream_data_bidi_remote": 1 << 20}, {1: 0})
        inp = seeds.with_frames("h3", [{"t": "STREAM", "stream_id": 1, "offset": wire.MAX_VARINT, "data": "00"}])
        self.assertEqual([f[0] for f in rules.judge_all(inp, srv)[1]], ["stream-on-send-only-or-uncreated", "stream-offset-over-2-62"])

    def test_an_unjudgeable_frame_after_a_violation_unjudges_the_input(self):
        inp = seeds.all_seeds()["h3-client-handshake-done"]
        inp["packets"].append({"epoch": "1rtt", "frames": [{"t": "ACK", "largest": 9999, "delay": 0, "first_range": 0}]})
        self.assertEqual(rules.judge_all(inp, rules.Server({"max_streams_bidi": 100}, {1: 0})), (rules.UNCERTAIN, []))


class WireTest(unittest.TestCase):
    def test_varints(self):
        for v, b in [(37, "25"), (15293, "7bbd"), (494878333, "9d7f3e7d"), (151288809941952652, "c2197c5eff14e88c")]:
            self.assertEqual(wire.varint(v).hex(), b)  # RFC 9000 Appendix A.1's examples
            self.assertEqual(wire.read_varint(bytes.fromhex(b)), (v, len(b) // 2))
        with self.assertRaises(wire.EncodeError):
            wire.varint(1 << 62)

    def test_frames(self):
        self.assertEqual(wire.encode_frame({"t": "NEW_TOKEN", "token": "aabb"}, {}).hex(), "0702aabb")
        offs = {}
        self.assertEqual(wire.encode_frame({"t": "STREAM", "stream_id": 2, "data": "0004"}, offs).hex(), "0a020200" + "04")
        self.assertEqual(wire.encode_frame({"t": "STREAM", "stream_id": 2, "data": "01", "fin": True}, offs).hex(), "0f02020101")
        self.assertEqual(wire.qpack_set_capacity(4096), "3fe11f")  # RFC 9204 Appendix B.2
        self.assertEqual(wire.qpack_set_capacity(10), "2a")


class MutatorTest(unittest.TestCase):
    def test_mutants_always_encode(self):
        rng = random.Random(7)
        t = grammar.Target("h3", params={"max_streams_bidi": 100})
        m = mutate.Mutator(rng, grammar.Generator(rng, t))
        inp, corpus = grammar.base_input(t), []
        for _ in range(2000):
            inp, _ = m.mutate(inp, corpus)
            self.assertLessEqual(len(mutate.frames_of(inp)), mutate.MAX_FRAMES)
            offs = {}
            for p in inp["packets"]:
                self.assertIn(p["epoch"], mutate.EPOCHS)
                for f in p["frames"]:
                    try:
                        wire.encode_frame(f, offs)
                    except wire.EncodeError as e:
                        # only a stream continued past 2^62-1 cannot be written (the frame is skipped)
                        self.assertEqual(f["t"], "STREAM", e)
                        self.assertIsNone(f.get("offset"), e)
            corpus.append(inp)
            if len(corpus) > 20:
                inp = corpus[rng.randrange(len(corpus))]


if __name__ == "__main__":
    unittest.main()
