#!/usr/bin/env python3
"""Line protocol v1 over a learner's Python module with the course's API.

    python3 tlbf_adapter.py MODULE.py        (tlbf check --python-module MODULE.py runs this)

Requests are read and answers written by the bundled implementation's
protocol layer (tlbf_impl.py, beside this file); every value comes from the
module: its functions fnv1a64, mix64, optimal_m, optimal_k and
predicted_fp_rate, and its class Bloom (new or the constructor, with_rate,
from_bytes, m, k, n_inserted as attributes or methods, bit_positions,
insert, contains, union, count_ones, to_bytes). docs/check.md, "Checking a
Python module", says which name serves which request and how errors map.
"""
import importlib.util
import os
import sys

# Beside this file once installed; in the source tree, in conformance/impls/python.
HERE = os.path.dirname(os.path.realpath(__file__))
for folder in (HERE, os.path.join(HERE, "..", "..", "impls", "python")):
    if os.path.isfile(os.path.join(folder, "tlbf_impl.py")):
        sys.path.insert(0, folder)
        break
import tlbf_impl as protocol  # noqa: E402  (its protocol layer only: readers, Session, serve)

KINDS = ("BadParams", "Mismatch", "Format")
# positions_for builds a filter of m bits and asks its bit_positions, up to
# this m; above it, a filter could take gigabytes, so the format's double
# hashing is done here over the module's own fnv1a64 and mix64.
POSITIONS_FROM_A_FILTER = 1 << 20
MASK64 = (1 << 64) - 1


def kind_of(error):
    """The protocol error kind an exception names, or None."""
    kind = getattr(error, "kind", None)
    if isinstance(kind, str) and kind in KINDS:
        return kind
    for cls in type(error).__mro__:
        if cls.__name__ in KINDS:
            return cls.__name__
    for word in (error.args[0] if error.args and isinstance(error.args[0], str) else "", str(error)):
        for k in KINDS:
            if word == k or word.startswith(k + ":") or word.startswith(k + " "):
                return k
    return None


class Raised(protocol.TlbfError):
    """What the module raised, as an error answer."""


def call(on_error, function, *args):
    """function(*args); an exception becomes an error answer of the kind it
    names, else `on_error` (None: the kind "Raised", which no request allows)."""
    try:
        return function(*args)
    except Exception as error:  # noqa: BLE001  (the learner's code may raise anything)
        kind = kind_of(error) or on_error or "Raised"
        text = " ".join(f"{type(error).__name__}: {error}".split())
        raise Raised(kind, text.encode("ascii", "backslashreplace").decode("ascii")[:300]) from None


def value(bloom, name):
    """An attribute, or the result of a method of that name."""
    v = getattr(bloom, name)
    return v() if callable(v) else v


class Module:
    """The learner's module, and the names the adapter calls in it."""

    def __init__(self, path):
        folder = os.path.dirname(os.path.abspath(path))
        sys.path.append(folder)  # its own imports of modules beside it
        spec = importlib.util.spec_from_file_location("learner_module", path)
        if spec is None or spec.loader is None:
            raise SystemExit(f"tlbf_adapter: cannot load {path} as a Python module")
        self.module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(self.module)
        missing = [n for n in ("fnv1a64", "mix64", "optimal_m", "optimal_k", "predicted_fp_rate", "Bloom")
                   if not hasattr(self.module, n)]
        if missing:
            raise SystemExit(f"tlbf_adapter: {path} has no {', '.join(missing)} (docs/check.md, \"Checking a Python module\")")
        self.Bloom = self.module.Bloom

    def new(self, m, k):
        make = getattr(self.Bloom, "new", None) or self.Bloom
        return call("BadParams", make, m, k)


class AdapterSession(protocol.Session):
    def __init__(self, module):
        self.learner = module
        super().__init__()

    def commands(self):
        mod = self.learner.module
        Bloom = self.learner.Bloom
        r = protocol
        hex64 = lambda x: [f"{x:016x}"]  # noqa: E731
        table = super().commands()
        table.update({
            "hello": ([], lambda: ["1", "tlbf-python-adapter"]),
            "fnv1a64": ([r.read_bytes], lambda b: hex64(call(None, mod.fnv1a64, b))),
            "mix64": ([r.read_hash], lambda h: hex64(call(None, mod.mix64, h))),
            "positions_for": ([r.U64, r.U32, r.read_bytes], self.positions_for),
            "optimal_m": ([r.U64, r.read_real], lambda n, p: [str(call("BadParams", mod.optimal_m, n, p))]),
            "optimal_k": ([r.U64, r.U64], lambda m, n: [str(call("BadParams", mod.optimal_k, m, n))]),
            "predicted_fp_rate": ([r.U64, r.U32, r.U64],
                                  lambda m, k, n: [r.write_real(float(call("BadParams", mod.predicted_fp_rate, m, k, n)))]),
            "with_rate": ([r.NEW, r.U64, r.read_real],
                          lambda name, n, p: self.store(name, call("BadParams", Bloom.with_rate, n, p))),
            "new": ([r.NEW, r.U64, r.U32], lambda name, m, k: self.store(name, self.learner.new(m, k))),
            "info": ([r.FILTER], lambda b: [str(call(None, value, b, f)) for f in ("m", "k", "n_inserted")]),
            "positions": ([r.FILTER, r.read_bytes], lambda b, item: [str(g) for g in call(None, b.bit_positions, item)]),
            "insert": ([r.FILTER, r.read_bytes], lambda b, item: call(None, b.insert, item) and None),
            "contains": ([r.FILTER, r.read_bytes],
                         lambda b, item: ["true" if call(None, b.contains, item) else "false"]),
            "count_ones": ([r.FILTER], lambda b: [str(call(None, b.count_ones))]),
            "to_bytes": ([r.FILTER], lambda b: [bytes(call(None, b.to_bytes)).hex() or "-"]),
            "from_bytes": ([r.NEW, r.read_bytes], lambda name, data: self.store(name, call("Format", Bloom.from_bytes, data))),
            "union": ([r.FILTER, r.FILTER], self.union),
        })
        return table

    def positions_for(self, m, k, item):
        if m <= POSITIONS_FROM_A_FILTER:
            return [str(g) for g in call(None, self.learner.new(m, k).bit_positions, item)]
        protocol.check_params(m, k)  # the format's bounds: a filter of this m is not made
        h1 = call(None, self.learner.module.fnv1a64, item)
        h2 = call(None, self.learner.module.mix64, h1) | 1
        return [str(((h1 + i * h2) & MASK64) % m) for i in range(k)]

    def union(self, a, b):
        # The request names F first: find it, since a union that returns a
        # new filter instead of changing F makes that one F.
        result = call("Mismatch", a.union, b)
        if isinstance(result, self.learner.Bloom):
            for name, f in self.filters.items():
                if f is a:
                    self.filters[name] = result
                    break
        return []

    def store(self, name, bloom):
        self.filters[name] = bloom

    def handle(self, line):
        try:
            return super().handle(line)
        except Exception as error:  # noqa: BLE001  (an answer of the wrong type, say)
            text = " ".join(f"{type(error).__name__}: {error}".split())
            return "err Raised " + text.encode("ascii", "backslashreplace").decode("ascii")[:300]


def main():
    if len(sys.argv) != 2:
        raise SystemExit("usage: tlbf_adapter.py MODULE.py")
    # The answers go to the standard output tlbf check reads; whatever the
    # module prints (a learner's debugging print) goes to standard error,
    # which the report shows, instead of into the answers.
    answers = os.dup(1)
    os.dup2(2, 1)
    sys.stdout = sys.stderr
    try:
        protocol.serve(AdapterSession(Module(sys.argv[1])), outfd=answers)
    except BrokenPipeError:
        sys.exit(3)


if __name__ == "__main__":
    main()
