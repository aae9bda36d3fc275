"""docs/python.md runs as printed: its Python blocks, in order, in one
interpreter (those that define pytest tests are the example file's, which
test_plugin.py runs), in a scratch directory holding what the text says
the reader has (a `captured` directory from contrib/capture_example.py);
the output block after the first prints what the block prints.  And
README's pytest test passes."""
import contextlib
import io
import os
import re
import subprocess
import sys

from conftest import TREE, argv_of_pytest, torch_or_skip


def blocks(path):
    text = open(path, encoding="utf-8").read()
    return re.findall(r"^```(\w*)\n(.*?)^```", text, re.S | re.M)


def test_python_md(tmp_path, monkeypatch):
    torch_or_skip()
    subprocess.run([sys.executable, os.path.join(TREE, "contrib", "capture_example.py"),
                    str(tmp_path / "captured")], check=True, stdout=subprocess.DEVNULL)
    monkeypatch.chdir(tmp_path)
    found = blocks(os.path.join(TREE, "docs", "python.md"))
    code = [(i, b) for i, (lang, b) in enumerate(found) if lang == "python"
            and "def test_" not in b]
    assert len(code) >= 4, code
    scope = {}
    for n, (i, block) in enumerate(code):
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            exec(compile(block, f"docs/python.md block {i}", "exec"), scope)
        if n == 0:  # its output is the next block
            assert found[i + 1][0] == "" and out.getvalue() == found[i + 1][1], out.getvalue()


def test_readme_block(tmp_path):
    """README's pytest test, in a file beside docs/user-kernels.md's my.cu
    (the kernel it names), passes under the plugin: my.cu's nofma build
    rounds x*x, +1 and the division each on its own, as PyTorch's three
    kernels do."""
    readme = [b for lang, b in blocks(os.path.join(TREE, "README.md"))
              if lang == "python" and "def test_" in b]
    assert len(readme) == 1, readme
    (kernel,) = [b for _, b in blocks(os.path.join(TREE, "docs", "user-kernels.md"))
                 if b.startswith("// my.cu\n")]
    (tmp_path / "my.cu").write_text(kernel)
    (tmp_path / "test_readme.py").write_text(readme[0])
    env = dict(os.environ)
    p = subprocess.run(argv_of_pytest(env) + ["-q", "test_readme.py"], cwd=tmp_path, env=env,
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    assert p.returncode == 0 and re.search(r"^1 passed", p.stdout, re.M), p.stdout
