"""batfill.serve's arguments and failures that need no Batsim: each a clear Python error."""

import unittest

import batfill
from support import free_port


class Fcfs(batfill.Policy):
    def select(self, view):
        return []


class Arguments(unittest.TestCase):
    def test_bad_arguments(self):
        with self.assertRaisesRegex(ValueError, "protocol 'batsim3'"):
            batfill.serve(Fcfs(), protocol="batsim3")
        with self.assertRaisesRegex(TypeError, "unknown setting 'speed'"):
            batfill.serve(Fcfs(), speed=2)
        with self.assertRaisesRegex(TypeError, "give an instance"):
            batfill.serve(Fcfs)
        with self.assertRaisesRegex(TypeError, "a batfill.Policy or a policy's name"):
            batfill.serve(42)
        with self.assertRaisesRegex(ValueError, "unknown backfilling policy 'nope'"):
            batfill.serve("nope")
        with self.assertRaisesRegex(ValueError, "order"):
            batfill.serve(Fcfs(), order="random")

    def test_no_batsim_within_the_timeout_is_status_2(self):
        with self.assertRaises(batfill.ServeError) as raised:
            batfill.serve(Fcfs(), endpoint=f"tcp://127.0.0.1:{free_port()}", timeout=0.2)
        self.assertEqual(raised.exception.status, 2)
        self.assertIn("no message from Batsim", str(raised.exception))

    def test_an_endpoint_it_cannot_bind_is_status_3(self):
        with self.assertRaises(batfill.ServeError) as raised:
            batfill.serve("easy", endpoint="tcp://256.0.0.1:1", timeout=1)
        self.assertEqual(raised.exception.status, 3)


if __name__ == "__main__":
    unittest.main()
