"""ulpbench_build.py — the PEP 517 build backend of the ulpbench package
(pyproject.toml's build-backend; docs/python.md).

`pip install ./python` (or `pip wheel ./python`) builds:
  - from a source tree that `make` has built (it wrote
    python/ulpbench/_where.py): the Python package alone, which runs that
    tree's engine (or the one `make install` put in place), as before;
  - from a source tree that is not built: the C engine too, with the
    autotools build of the tree around python/ (autoreconf when there is
    no configure, configure against NVIDIA's NVRTC wheel that this
    backend asks pip for, make, make install into a staging directory),
    and the wheel carries it as `make install` lays it out under a
    prefix: bin/ulpbench (a script of the wheel), share/ulpbench
    (kernels, suites, the sm_90 tables) and include/ulpbench.h.  Installed
    into an environment, the engine finds its data beside itself and its
    CUDA toolkit in that environment's site-packages, where the wheel's
    dependencies (NVRTC, nvcc and the headers of CUDA 13.0, pinned) put
    it (src/compile/toolkit.h).

The project's metadata is read from pyproject.toml (tomllib, Python 3.11
or newer for a build from the sources).  The wheel is platform-specific
when it carries the engine, pure otherwise."""
import base64
import hashlib
import os
import shutil
import subprocess
import sys
import sysconfig
import zipfile

HERE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))  # python/
TREE = os.path.dirname(HERE)
# what the engine is built against, and runs with: CUDA 13.0 from
# NVIDIA's wheels, pinned as `ulpbench toolkits --pip 13.0` pins them
BUILD_REQUIRES = ["nvidia-cuda-nvrtc==13.0.88", "nvidia-cuda-runtime==13.0.96"]
ENGINE_REQUIRES = BUILD_REQUIRES + ["nvidia-cuda-nvcc==13.0.88", "nvidia-nvvm==13.0.88",
                                    "nvidia-cuda-crt==13.0.88", "nvidia-cuda-cccl==13.0.85"]


class BuildError(Exception):
    pass


def _project():
    try:
        import tomllib
    except ImportError:
        raise BuildError("ulpbench: building the package needs Python 3.11 or newer (tomllib)")
    with open(os.path.join(HERE, "pyproject.toml"), "rb") as f:
        return tomllib.load(f)["project"]


def _prebuilt():
    """Whether make has built the tree (it wrote _where.py)."""
    return os.path.exists(os.path.join(HERE, "ulpbench", "_where.py"))


def _run(cmd, cwd, log):
    print("ulpbench_build: " + " ".join(cmd), file=sys.stderr)
    r = subprocess.run(cmd, cwd=cwd, stdout=log, stderr=subprocess.STDOUT)
    if r.returncode != 0:
        raise BuildError("ulpbench: building the engine failed: `%s` exited %d (its output: %s)"
                         % (" ".join(cmd), r.returncode, log.name))


def _cuda_dir():
    """The site-packages directory holding NVIDIA's NVRTC wheel, as pip
    installed it for this build (configure --with-cuda reads it)."""
    import importlib.util
    spec = importlib.util.find_spec("nvidia")
    for loc in (spec.submodule_search_locations if spec else []) or []:
        if os.path.isdir(os.path.join(loc, "cu13", "lib")) or os.path.isdir(os.path.join(loc, "cuda_nvrtc")):
            return os.path.dirname(loc)
    raise BuildError("ulpbench: NVIDIA's NVRTC wheel is not installed for the build (%s)"
                     % ", ".join(BUILD_REQUIRES))


def _build_engine(stage):
    """The engine built from TREE and installed under stage/prefix."""
    if not os.path.exists(os.path.join(TREE, "configure.ac")):
        raise BuildError("ulpbench: the engine's sources are not beside python/ (%s): install "
                         "from the ulpbench source tree, or build it and make install first" % TREE)
    if os.path.exists(os.path.join(TREE, "config.status")):
        raise BuildError("ulpbench: %s is configured but not built: run make there first, or "
                         "make distclean" % TREE)
    build = os.path.join(HERE, "build", "engine")
    os.makedirs(build, exist_ok=True)
    with open(os.path.join(build, "build.log"), "w") as log:
        if not os.path.exists(os.path.join(TREE, "configure")):
            _run(["autoreconf", "-fi"], TREE, log)
        _run([os.path.join(TREE, "configure"), "--with-cuda=" + _cuda_dir(), "--prefix=/prefix"],
             build, log)
        jobs = "-j%d" % (os.cpu_count() or 1)
        _run(["make", jobs], build, log)
        _run(["make", "install", "DESTDIR=" + stage], build, log)
    return os.path.join(stage, "prefix")


def _record_line(name, data):
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    return "%s,sha256=%s,%d" % (name, digest, len(data))


def _metadata(proj, engine):
    lines = ["Metadata-Version: 2.1", "Name: " + proj["name"], "Version: " + proj["version"],
             "Summary: " + proj.get("description", ""),
             "Requires-Python: " + proj.get("requires-python", ">=3")]
    for dep in proj.get("dependencies", []) + (ENGINE_REQUIRES if engine else []):
        lines.append("Requires-Dist: " + dep)
    return "\n".join(lines) + "\n"


def _entry_points(proj):
    out = []
    for group, eps in proj.get("entry-points", {}).items():
        out.append("[%s]" % group)
        out += ["%s = %s" % kv for kv in eps.items()]
        out.append("")
    return "\n".join(out)


def _wheel(wheel_directory, engine_prefix):
    proj = _project()
    name, version = proj["name"], proj["version"]
    tag = "py3-none-" + sysconfig.get_platform().replace("-", "_").replace(".", "_") \
        if engine_prefix else "py3-none-any"
    dist = "%s-%s" % (name, version)
    path = os.path.join(wheel_directory, "%s-%s.whl" % (dist, tag))
    record = []
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
        def add(arc, data, mode=0o644):
            info = zipfile.ZipInfo(arc, date_time=(2020, 1, 1, 0, 0, 0))
            info.external_attr = (0o100000 | mode) << 16
            info.compress_type = zipfile.ZIP_DEFLATED
            z.writestr(info, data)
            record.append(_record_line(arc, data))
        pkg = os.path.join(HERE, "ulpbench")
        for f in sorted(os.listdir(pkg)):
            if f.endswith(".py"):
                with open(os.path.join(pkg, f), "rb") as fh:
                    add("ulpbench/" + f, fh.read())
        if engine_prefix:  # as make install lays it out under a prefix
            for root, _, files in os.walk(engine_prefix):
                for f in sorted(files):
                    full = os.path.join(root, f)
                    rel = os.path.relpath(full, engine_prefix)
                    with open(full, "rb") as fh:
                        data = fh.read()
                    if rel.startswith("bin" + os.sep):
                        add("%s.data/scripts/%s" % (dist, f), data, 0o755)
                    else:
                        add("%s.data/data/%s" % (dist, rel.replace(os.sep, "/")), data)
        info = dist + ".dist-info/"
        add(info + "METADATA", _metadata(proj, engine_prefix is not None).encode())
        add(info + "WHEEL", ("Wheel-Version: 1.0\nGenerator: ulpbench_build\nRoot-Is-Purelib: %s\n"
                             "Tag: %s\n" % ("false" if engine_prefix else "true", tag)).encode())
        add(info + "entry_points.txt", _entry_points(proj).encode())
        record.append(info + "RECORD,,")
        z.writestr(info + "RECORD", "\n".join(record) + "\n")
    return os.path.basename(path)


def get_requires_for_build_wheel(config_settings=None):
    return [] if _prebuilt() else list(BUILD_REQUIRES)


def build_wheel(wheel_directory, config_settings=None, metadata_directory=None):
    if _prebuilt():
        return _wheel(wheel_directory, None)
    stage = os.path.join(HERE, "build", "stage")
    shutil.rmtree(stage, ignore_errors=True)
    return _wheel(wheel_directory, _build_engine(stage))
