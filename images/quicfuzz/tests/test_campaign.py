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
