"""The C registries' parameter tables in Python: learners, their parameters, values as C text."""
import numbers

import numpy as np

from ._lib import lib


# The composable tree's slots (algorithms/models/tree_params.c): each takes a plug-in's name,
# and that plug-in's parameters as SLOT.PARAM (here SLOT__PARAM or SLOT_params={...}).
SLOTS = ("criterion", "numeric", "nominal", "pruner", "missing")
_PARAM_TYPES = ("int", "double", "bool", "choice", "string")


def learners():
    """Every learner of the C registry: {name: (summary, tasks, [param dicts])}."""
    out = {}
    i = 0
    while True:
        t = lib.tl_model_at(i)
        if not t:
            return out
        t = t.contents
        out[t.name.decode()] = (t.summary.decode(), t.tasks, _params_of(t.params))
        i += 1


def _params_of(spec):
    out = []
    for j in range(10000) if spec else ():
        s = spec[j]
        if not s.name:
            break
        out.append({"name": s.name.decode(), "type": _PARAM_TYPES[s.type],
                    "default": s.default.decode() if s.default else None,
                    "min": s.min, "max": s.max,
                    "choices": s.choices.decode() if s.choices else None,
                    "help": s.help.decode() if s.help else ""})
    return out


def _c_value(v):
    """A Python value as the text the C parameter reader takes (doubles round-trip exactly)."""
    if isinstance(v, (bool, np.bool_)):
        return "true" if v else "false"
    if isinstance(v, numbers.Integral):
        return str(int(v))
    if isinstance(v, numbers.Real):
        return repr(float(v))
    return str(v)
