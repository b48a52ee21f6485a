"""The campaign's own checks of an answer, on recorded answers (no network)."""
import os
import tempfile
import unittest

from livefuzz import campaign, seeds


class CloseFrameTypeTest(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        os.environ.pop("SSLKEYLOGFILE", None)
        self.c = campaign.Campaign({"server": "server4", "alpn": "h3", "rules": [], "seed": 1}, self.tmp.name)

    def tearDown(self):
        self.c.keylog.close()
        self.c.store.answers.close()
        self.tmp.cleanup()

    def check(self, frame_type, inp=None):
        out = {"close": {"app": False, "code": 0x0a, "frame_type": frame_type, "reason": ""}}
        self.c.check_close_frame_type(inp or seeds.all_seeds()["h3-valid-opening"], out)
        return self.c.stats.get("close_frame_type", {})

    def test_a_pointer_is_no_frame_type(self):
        # haproxy 3.0 was seen closing with values like this one in the Frame Type field
        st = self.check(0x7FB1EB7C54E0)
        self.assertEqual((st["checked"], st["bogus"]), (1, 1))
        self.assertEqual(len(os.listdir(os.path.join(self.tmp.name, "findings"))), 1)

    def test_frame_types_are_fine(self):
        for ft in (0x00, 0x08, 0x1E, 0x31):
            self.check(ft)
        self.assertEqual(self.c.stats["close_frame_type"]["bogus"], 0)

    def test_an_input_with_raw_bytes_is_not_checked(self):
        # once a length in raw bytes is off, the server reads a frame type out of the data
        inp = seeds.with_frames("h3", [{"t": "RAW", "hex": "0a00ff"}])
        self.assertEqual(self.check(0x11D7500773657276, inp).get("checked", 0), 0)


if __name__ == "__main__":
    unittest.main()


class JudgeTest(unittest.TestCase):
    """The RFC oracle on recorded answers: the rule's code holds it, another code or a kept
    connection breaks it (a finding), a code only a later violation allows judges nothing."""

    PARAMS = {"max_streams_bidi": 100, "max_streams_uni": 100, "max_stream_data_uni": 1 << 20,
              "max_stream_data_bidi_remote": 1 << 20, "max_data": 1 << 22}
    RULES = [{"id": "client-handshake-done", "section": "RFC 9000 §19.20", "must": "MUST", "transport": [0x0A]},
             {"id": "client-new-token", "section": "RFC 9000 §19.7", "must": "MUST", "transport": [0x0A]},
             {"id": "new-token-empty", "section": "RFC 9000 §19.7", "must": "MUST", "transport": [0x07]}]

    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        os.environ.pop("SSLKEYLOGFILE", None)
        self.c = campaign.Campaign({"server": "server4", "alpn": "h3", "rules": self.RULES, "seed": 1}, self.tmp.name)

    def tearDown(self):
        self.c.keylog.close()
        self.c.store.answers.close()
        self.tmp.cleanup()

    def answer(self, seed, close=None, alive=False):
        out = {"handshake": True, "params": self.PARAMS, "settings": {1: 0}, "alive": alive, "close": close}
        return self.c.judge(seeds.all_seeds()[seed], out)

    def test_the_rules_code_holds_it(self):
        v = self.answer("h3-client-handshake-done", close={"app": False, "code": 0x0A, "frame_type": 0x1E, "reason": ""})
        self.assertTrue(v["held"])

    def test_a_kept_connection_or_another_code_breaks_it(self):
        self.assertFalse(self.answer("h3-client-handshake-done", alive=True)["held"])
        self.assertFalse(self.answer("h3-client-handshake-done", close={"app": False, "code": 0x05, "frame_type": 0, "reason": ""})["held"])
        self.assertEqual(self.c.stats["rules"]["client-handshake-done"]["broken"], 2)
        self.assertEqual(len(os.listdir(os.path.join(self.tmp.name, "findings"))), 2)

    def test_a_code_of_another_violation_judges_nothing(self):
        # an empty NEW_TOKEN breaks two rules: FRAME_ENCODING_ERROR is the second one's
        v = self.answer("h3-client-new-token-empty", close={"app": False, "code": 0x07, "frame_type": 0x07, "reason": ""})
        self.assertIsNone(v["held"])
        self.assertNotIn("client-new-token", self.c.stats["rules"])
