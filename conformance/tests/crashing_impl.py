#!/usr/bin/env python3
"""The bundled Python implementation as a learner might leave it: math.log
where the reference guards it (optimal_m(4, 0) raises inside it), and every
refusal raised and never caught, so that each out-of-domain request ends the
process with a traceback. tlbf check must restart it, lose only the cases of
those requests, and run every other."""
import math
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "impls", "python"))
import tlbf_impl  # noqa: E402

tlbf_impl.ln = math.log
answer = tlbf_impl.Session.answer


class Crashing(tlbf_impl.Session):
    def answer(self, line):
        try:
            return answer(self, line)
        except tlbf_impl.TlbfError as e:
            if e.kind == "BadParams":
                raise RuntimeError(f"unhandled: {e}") from None  # crashes: handle() catches only the format's errors
            raise


if __name__ == "__main__":
    tlbf_impl.serve(Crashing())
