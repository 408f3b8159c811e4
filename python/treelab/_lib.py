"""The ctypes core: finds libtreelab, declares the C functions used, and turns C errors into
Python exceptions (LightGBM's and XGBoost's ``_safe_call``)."""
import ctypes
import glob
import logging
import os
import shutil

_HERE = os.path.dirname(os.path.abspath(__file__))
_SOURCE_ROOT = os.path.dirname(os.path.dirname(_HERE))  # python/treelab -> the checkout

# Error codes of include/treelab/tl_error.h.
TL_OK, TL_EINVAL, TL_EPARSE, TL_EIO, TL_EUNSUPPORTED, TL_ENOMEM, TL_EINTERNAL = range(7)
TL_ATTR_NUMERIC, TL_ATTR_NOMINAL = 0, 1
TL_MISSING_CODE = -1
TL_SHOW_TEXT, TL_SHOW_DOT, TL_SHOW_RULES = 0, 1, 2


class TreelabError(RuntimeError):
    """An internal error of the C library (a bug or a numerical failure)."""


def _candidates(name):
    """Where to look for lib<name>.so, first match wins: TREELAB_LIB (a file or a folder),
    next to the package, the checkout's build folder, then the system's loader path."""
    out = []
    env = os.environ.get("TREELAB_LIB")
    if env:
        out.append(os.path.join(env, name + ".so") if os.path.isdir(env) else
                   os.path.join(os.path.dirname(env), name + ".so"))
    for folder in (_HERE, os.path.join(_SOURCE_ROOT, "build")):
        out.extend(sorted(glob.glob(os.path.join(folder, name + ".so*"))))
    out.append(name + ".so.0")
    out.append(name + ".so")
    return out


def _load(name):
    tried = []
    for path in _candidates(name):
        if os.path.sep in path and not os.path.exists(path):
            tried.append(path)
            continue
        try:
            return ctypes.CDLL(path), path
        except OSError as e:
            tried.append("%s (%s)" % (path, e))
    raise ImportError("treelab: cannot load %s; build the C library (scripts/setup.sh) or set "
                      "TREELAB_LIB to its folder; tried: %s" % (name, "; ".join(tried)))


def cli_path():
    """The treelab program: TREELAB_CLI, next to the package, the build folder, or PATH."""
    env = os.environ.get("TREELAB_CLI")
    for p in ([env] if env else []) + [os.path.join(_HERE, "treelab"),
                                       os.path.join(os.path.dirname(LIB_PATH), "treelab"),
                                       os.path.join(_SOURCE_ROOT, "build", "treelab")]:
        if p and os.path.isfile(p) and os.access(p, os.X_OK):
            return p
    p = shutil.which("treelab")
    if not p:
        raise FileNotFoundError("treelab: the treelab program was not found (TREELAB_CLI, the "
                                "build folder or PATH)")
    return p


lib, LIB_PATH = _load("libtreelab")
# the experiments library (statistics) lives beside libtreelab
try:
    exp_lib = ctypes.CDLL(os.path.join(os.path.dirname(LIB_PATH),
                                       os.path.basename(LIB_PATH).replace("libtreelab",
                                                                          "libtreelab-experiments")))
except OSError:
    exp_lib, _ = _load("libtreelab-experiments")


class Err(ctypes.Structure):
    _fields_ = [("code", ctypes.c_int), ("msg", ctypes.c_char * 1024),
                ("src_file", ctypes.c_char_p), ("src_line", ctypes.c_int)]


class FitCtx(ctypes.Structure):
    """tl_fit_ctx (tl_model.h), every field: C reads them all."""
    _fields_ = [("seed", ctypes.c_ulong), ("valid_rows", ctypes.POINTER(ctypes.c_size_t)),
                ("n_valid", ctypes.c_size_t), ("jobs", ctypes.c_size_t),
                ("view_cache", ctypes.c_void_p)]


class ModelInfo(ctypes.Structure):
    _fields_ = [("leaves", ctypes.c_size_t), ("depth", ctypes.c_size_t),
                ("nodes", ctypes.c_size_t)]


class AttrInfo(ctypes.Structure):
    _fields_ = [("name", ctypes.c_char_p), ("kind", ctypes.c_int), ("n_levels", ctypes.c_size_t),
                ("levels", ctypes.POINTER(ctypes.c_char_p))]


class ParamSpec(ctypes.Structure):
    _fields_ = [("name", ctypes.c_char_p), ("type", ctypes.c_int), ("default", ctypes.c_char_p),
                ("min", ctypes.c_double), ("max", ctypes.c_double),
                ("choices", ctypes.c_char_p), ("help", ctypes.c_char_p)]


class ModelType(ctypes.Structure):
    """The leading fields of tl_model_type (tl_model.h); the rest is never read here."""
    _fields_ = [("name", ctypes.c_char_p), ("summary", ctypes.c_char_p),
                ("tasks", ctypes.c_uint), ("params", ctypes.POINTER(ParamSpec))]


class PluginType(ctypes.Structure):
    """TL_PLUGIN_FIELDS, the leading fields of every plug-in type (tl_grow.h)."""
    _fields_ = [("name", ctypes.c_char_p), ("summary", ctypes.c_char_p),
                ("reference", ctypes.c_char_p), ("params", ctypes.POINTER(ParamSpec))]


class PruneTrace(ctypes.Structure):
    _fields_ = [("pruner", ctypes.c_char_p), ("param_name", ctypes.c_char_p),
                ("error_name", ctypes.c_char_p), ("risk_name", ctypes.c_char_p),
                ("n", ctypes.c_size_t), ("cap", ctypes.c_size_t),
                ("param", ctypes.POINTER(ctypes.c_double)),
                ("leaves", ctypes.POINTER(ctypes.c_double)),
                ("risk", ctypes.POINTER(ctypes.c_double)),
                ("error", ctypes.POINTER(ctypes.c_double)),
                ("se", ctypes.POINTER(ctypes.c_double)),
                ("chosen", ctypes.c_size_t), ("chosen_param", ctypes.c_double),
                ("min_error", ctypes.c_size_t)]


class Friedman(ctypes.Structure):
    _fields_ = [("chi2", ctypes.c_double), ("p_chi2", ctypes.c_double),
                ("ff", ctypes.c_double), ("p_ff", ctypes.c_double)]


class Wilcoxon(ctypes.Structure):
    _fields_ = [("r_plus", ctypes.c_double), ("r_minus", ctypes.c_double),
                ("statistic", ctypes.c_double), ("z", ctypes.c_double), ("p", ctypes.c_double),
                ("n", ctypes.c_size_t), ("exact", ctypes.c_int)]


class ControlTest(ctypes.Structure):
    _fields_ = [("z", ctypes.c_double), ("p", ctypes.c_double), ("holm", ctypes.c_int),
                ("bonferroni_dunn", ctypes.c_int)]


_p = ctypes.c_void_p
_sz = ctypes.c_size_t
_dp = ctypes.POINTER(ctypes.c_double)
_ip = ctypes.POINTER(ctypes.c_int)
_i64p = ctypes.POINTER(ctypes.c_int64)
_ep = ctypes.POINTER(Err)
_str = ctypes.c_char_p
_strs = ctypes.POINTER(ctypes.c_char_p)

# name: (restype, argtypes); every function that takes a tl_err goes through safe_call.
_SIGNATURES = {
    "tl_dataset_wrap": (_p, [_sz, _sz, _ep]),
    "tl_dataset_wrap_numeric": (ctypes.c_int, [_p, _sz, _str, _p, _ep]),
    "tl_dataset_wrap_nominal": (ctypes.c_int, [_p, _sz, _str, _p, _sz, _strs, _ep]),
    "tl_dataset_wrap_weights": (ctypes.c_int, [_p, _p, _ep]),
    "tl_dataset_wrap_check": (ctypes.c_int, [_p, _ep]),
    "tl_dataset_wrap_free": (None, [_p]),
    "tl_dataset_load": (_p, [_str, _str, _ep]),
    "tl_dataset_free": (None, [_p]),
    "tl_dataset_attr": (ctypes.POINTER(AttrInfo), [_p, _sz]),
    "tl_dataset_numbers": (_dp, [_p, _sz]),
    "tl_dataset_codes": (_ip, [_p, _sz]),
    "tl_dataset_rows": (_sz, [_p]),
    "tl_dataset_row_weights": (_dp, [_p]),
    "tl_model_new_kv": (_p, [_str, _strs, _sz, _ep]),
    "tl_model_free": (None, [_p]),
    "tl_model_fit": (ctypes.c_int, [_p, _p, _p, _sz, ctypes.POINTER(FitCtx), _ep]),
    "tl_model_predict": (ctypes.c_int, [_p, _p, _p, _sz, _p, _ep]),
    "tl_model_out_width": (_sz, [_p]),
    "tl_model_save": (ctypes.c_int, [_p, _str, _ep]),
    "tl_model_load": (_p, [_str, _ep]),
    "tl_model_show_text": (ctypes.POINTER(ctypes.c_char), [_p, ctypes.c_int,
                                                           ctypes.POINTER(_sz), _ep]),
    "tl_text_free": (None, [_p]),
    "tl_model_get_info": (None, [_p, ctypes.POINTER(ModelInfo)]),
    "tl_model_has_size": (ctypes.c_int, [_p]),
    "tl_model_tree": (_p, [_p]),
    "tl_model_prune_trace": (ctypes.POINTER(PruneTrace), [_p]),
    "tl_model_at": (ctypes.POINTER(ModelType), [_sz]),
    "tl_criterion_at": (ctypes.POINTER(PluginType), [_sz]),
    "tl_splitter_at": (ctypes.POINTER(PluginType), [_sz]),
    "tl_pruner_at": (ctypes.POINTER(PluginType), [_sz]),
    "tl_missing_at": (ctypes.POINTER(PluginType), [_sz]),
    "tl_criterion_find": (_p, [_str, _ep]),
    "tl_tree_arrays": (None, [_p, _ip, _ip, _dp, _i64p, _i64p, _dp, _dp]),
    "tl_tree_importances": (ctypes.c_int, [_p, _p, _sz, _dp, _ep]),
    "tl_log_set_hook": (_p, [_p, _p]),
    "tl_version": (_str, []),
}
_EXP_SIGNATURES = {
    "tl_friedman_test": (ctypes.c_int, [_dp, _sz, _sz, _dp, ctypes.POINTER(Friedman), _ep]),
    "tl_nemenyi_cd": (ctypes.c_int, [_sz, _sz, ctypes.c_double, _dp, _ep]),
    "tl_wilcoxon_test": (ctypes.c_int, [_dp, _dp, _sz, ctypes.c_int, ctypes.POINTER(Wilcoxon),
                                        _ep]),
    "tl_control_tests": (ctypes.c_int, [_dp, _sz, _sz, _sz, ctypes.c_double,
                                        ctypes.POINTER(ControlTest), _ep]),
    "tl_bonferroni_dunn_cd": (ctypes.c_int, [_sz, _sz, ctypes.c_double, _dp, _ep]),
    "tl_corrected_ttest": (ctypes.c_int, [_dp, _dp, _sz, ctypes.c_double, _p, _ep]),
}
for _lib_, _sigs in ((lib, _SIGNATURES), (exp_lib, _EXP_SIGNATURES)):
    for _name, (_res, _args) in _sigs.items():
        _f = getattr(_lib_, _name)
        _f.restype, _f.argtypes = _res, _args


def _exception(err):
    msg = err.msg.decode("utf-8", "replace")
    if err.code in (TL_EINVAL, TL_EPARSE, TL_EUNSUPPORTED):
        return ValueError(msg)
    if err.code == TL_EIO:
        return OSError(msg)
    if err.code == TL_ENOMEM:
        return MemoryError(msg)
    return TreelabError(msg)


def safe_call(fn, *args):
    """Call fn(*args, err): an int result other than TL_OK, or a NULL pointer, raises the C
    library's message as ValueError (bad input), OSError (a file), MemoryError or
    TreelabError (a RuntimeError: internal)."""
    err = Err()
    out = fn(*args, ctypes.byref(err))
    failed = (out != TL_OK) if fn.restype is ctypes.c_int else not out
    if failed:
        if err.code == TL_OK:  # a NULL without a message: only allocation fails so
            err.code, err.msg = TL_ENOMEM, b"out of memory"
        raise _exception(err)
    return out


def text_of(ptr, length):
    """A C string returned by the library, freed after copying."""
    try:
        return ctypes.string_at(ptr, length).decode("utf-8")
    finally:
        lib.tl_text_free(ctypes.cast(ptr, ctypes.c_void_p))


# The library logs through a hook (progress, warnings): here, to the `treelab` logger, so
# nothing is printed unless the program asks for it.
_logger = logging.getLogger("treelab")
_LEVELS = {0: logging.DEBUG, 1: logging.INFO, 2: logging.WARNING}
_LOG_FN = ctypes.CFUNCTYPE(None, ctypes.c_int, ctypes.c_char_p, ctypes.c_void_p)


def _log_hook(level, msg, user):
    _logger.log(_LEVELS.get(level, logging.WARNING), msg.decode("utf-8", "replace"))


_hook = _LOG_FN(_log_hook)  # kept alive: the library holds the pointer
lib.tl_log_set_hook(ctypes.cast(_hook, ctypes.c_void_p), None)
