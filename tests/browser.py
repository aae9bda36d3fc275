"""browser.py — drive headless Chromium over the DevTools protocol, with
the standard library only, to check an HTML report as a reader sees it.

    python3 tests/browser.py [--check] [--screenshot OUT.png] [--viewport OUT.png]
                             [--shot SELECTOR OUT.png]... [--width W] [--scale S]
                             PAGE.html...

Loads each page in turn, waits for its load event (the page's script has
run by then), and prints one JSON object per page, one per line: per
section (dtype) the rows of its
summary table, its legend entries, its panel rows and their modes; the
result of clicking the second legend entry of the first section (how many
of that row's figures were visible before and after, and after a second
click), and of clicking the first explain command's copy button (the
command on the clipboard, or selected where the browser refuses the
clipboard); and every script error and console error the page raised.  With
--check it exits 1 when the page breaks one of those expectations (one
panel row per figured row, the click hides exactly that row's figures and
a second click shows them again, the copy button yields the command, no
errors), saying which on stderr.
--screenshot saves the whole first page as a PNG, --viewport its first
screen (W by 900 pixels, as a reader opens it), --shot one element's box of
it, all at --scale (default 1).  Each page's object also has "glance": the
bottom edge of its first-screen table (table.glance) on the first screen,
in pixels from the top, and its rows' texts.

Chromium: Debian's `chromium` (found on PATH or as $CHROMIUM).  It runs
with --no-sandbox (tests run as root in CI containers) and a temporary
profile that is removed afterwards."""
import base64
import json
import os
import re
import shutil
import socket
import struct
import subprocess
import sys
import tempfile
import time
import urllib.request


class WebSocket:
    """The client side of RFC 6455, enough for DevTools: text frames."""

    def __init__(self, url):
        m = re.match(r"ws://([^:/]+):(\d+)(/.*)", url)
        self.sock = socket.create_connection((m.group(1), int(m.group(2))), timeout=60)
        key = base64.b64encode(os.urandom(16)).decode()
        req = (f"GET {m.group(3)} HTTP/1.1\r\nHost: {m.group(1)}:{m.group(2)}\r\n"
               "Upgrade: websocket\r\nConnection: Upgrade\r\n"
               f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n")
        self.sock.sendall(req.encode())
        head = b""
        while b"\r\n\r\n" not in head:
            chunk = self.sock.recv(1)
            if not chunk:
                raise ConnectionError("DevTools closed the connection")
            head += chunk
        if b" 101 " not in head.split(b"\r\n")[0]:
            raise ConnectionError("DevTools refused the upgrade: " + head.decode(errors="replace"))
        self.buf = b""

    def send(self, text):
        data = text.encode()
        hdr = bytearray([0x81])
        n = len(data)
        if n < 126:
            hdr.append(0x80 | n)
        elif n < 65536:
            hdr.append(0x80 | 126)
            hdr += struct.pack(">H", n)
        else:
            hdr.append(0x80 | 127)
            hdr += struct.pack(">Q", n)
        mask = os.urandom(4)
        hdr += mask
        self.sock.sendall(bytes(hdr) + bytes(b ^ mask[i % 4] for i, b in enumerate(data)))

    def _read(self, n):
        while len(self.buf) < n:
            chunk = self.sock.recv(1 << 20)
            if not chunk:
                raise ConnectionError("DevTools closed the connection")
            self.buf += chunk
        out, self.buf = self.buf[:n], self.buf[n:]
        return out

    def recv(self):
        message = b""
        while True:
            b0, b1 = self._read(2)
            n = b1 & 0x7F
            if n == 126:
                n = struct.unpack(">H", self._read(2))[0]
            elif n == 127:
                n = struct.unpack(">Q", self._read(8))[0]
            mask = self._read(4) if b1 & 0x80 else None
            payload = self._read(n)
            if mask:
                payload = bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
            if b0 & 0x0F == 0x8:
                raise ConnectionError("DevTools closed the WebSocket")
            if b0 & 0x0F in (0x9, 0xA):  # ping/pong: not sent by DevTools
                continue
            message += payload
            if b0 & 0x80:
                return message.decode()


class Page:
    def __init__(self, ws):
        self.ws = ws
        self.next_id = 0
        self.events = []

    def call(self, method, **params):
        self.next_id += 1
        self.ws.send(json.dumps({"id": self.next_id, "method": method, "params": params}))
        while True:
            msg = json.loads(self.ws.recv())
            if msg.get("id") == self.next_id:
                if "error" in msg:
                    raise RuntimeError(f"{method}: {msg['error']}")
                return msg.get("result", {})
            self.events.append(msg)

    def wait_event(self, method, timeout=60):
        end = time.time() + timeout
        while time.time() < end:
            for i, e in enumerate(self.events):
                if e.get("method") == method:
                    return self.events.pop(i)
            self.events.append(json.loads(self.ws.recv()))
        raise TimeoutError(method)

    def js(self, expr):
        r = self.call("Runtime.evaluate", expression=expr, returnByValue=True,
                      awaitPromise=True)
        if "exceptionDetails" in r:
            raise RuntimeError("script failed: " + json.dumps(r["exceptionDetails"])[:400])
        return r["result"].get("value")

    def errors(self):
        out = []
        for e in self.events:
            m, p = e.get("method"), e.get("params", {})
            if m == "Runtime.exceptionThrown":
                d = p.get("exceptionDetails", {})
                out.append("exception: " + (d.get("exception", {}).get("description")
                                            or d.get("text", "")))
            elif m == "Runtime.consoleAPICalled" and p.get("type") in ("error", "assert"):
                out.append("console." + p["type"] + ": " +
                           " ".join(str(a.get("value", a.get("description", "")))
                                    for a in p.get("args", [])))
            elif m == "Log.entryAdded" and p.get("entry", {}).get("level") == "error":
                out.append("log: " + p["entry"].get("text", ""))
        return out


def start_chromium(profile):
    exe = os.environ.get("CHROMIUM") or shutil.which("chromium") or shutil.which("chromium-browser")
    if not exe:
        raise FileNotFoundError("no chromium on PATH (Debian: apt-get install chromium)")
    proc = subprocess.Popen(
        [exe, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
         "--no-first-run", "--remote-debugging-port=0", f"--user-data-dir={profile}",
         "about:blank"], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    end = time.time() + 60
    for line in proc.stderr:
        m = re.search(r"DevTools listening on (ws://\S+)", line)
        if m:
            return proc, m.group(1)
        if time.time() > end:
            break
    proc.kill()
    raise RuntimeError("chromium did not start its DevTools server")


def page_socket(browser_ws):
    port = re.match(r"ws://[^:]+:(\d+)/", browser_ws).group(1)
    for _ in range(100):
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/json/list") as r:
            targets = [t for t in json.load(r) if t.get("type") == "page"]
        if targets:
            return targets[0]["webSocketDebuggerUrl"]
        time.sleep(0.1)
    raise RuntimeError("chromium has no page")


SUMMARY_JS = r"""
(() => Array.from(document.querySelectorAll('section.dtsec')).map(sec => ({
  dtype: sec.dataset.dtype,
  rows: Array.from(sec.querySelectorAll('table.summary tr[id^="row-"]')).map(r => r.id),
  legend: Array.from(sec.querySelectorAll('.legend label')).map(l => l.textContent.trim()),
  panels: Array.from(sec.querySelectorAll('.panels')).map(p =>
    Array.from(p.querySelectorAll('.prow[data-s]')).map(r =>
      r.querySelector('.pname') ? r.querySelector('.pname').textContent : '?')),
  maps: sec.querySelectorAll('svg.map').length,
  dist: sec.querySelectorAll('table.dist tr[data-s]').length,
  worst: sec.querySelectorAll('table.worst tr.entry').length,
  copy: sec.querySelectorAll('button.copy').length,
})))()
"""

# The first-screen table: where it ends on the first screen, and its rows
GLANCE_JS = r"""
(() => { window.scrollTo(0, 0); const t = document.querySelector('table.glance');
  if (!t) return null;
  return { bottom: t.getBoundingClientRect().bottom,
           rows: Array.from(t.querySelectorAll('tr')).slice(1).map(r =>
             Array.from(r.querySelectorAll('td')).map(c => c.innerText.trim())) }; })()
"""

# Counts the visible figures of row k in the first section.
VISIBLE_JS = r"""
((k) => { const sec = document.querySelector('section.dtsec');
  const els = Array.from(sec.querySelectorAll('[data-s="' + k + '"]'))
    .filter(e => !e.closest('.legend'));
  return { all: els.length,
           visible: els.filter(e => e.getClientRects().length > 0).length }; })
"""


def click(page, selector):
    box = page.js(f"(() => {{ const e = document.querySelector({json.dumps(selector)});"
                  "e.scrollIntoView({block: 'center'}); const r = e.getBoundingClientRect();"
                  "return [r.x + r.width / 2, r.y + r.height / 2]; })()")
    for kind in ("mousePressed", "mouseReleased"):
        page.call("Input.dispatchMouseEvent", type=kind, x=box[0], y=box[1],
                  button="left", clickCount=1)


def toggle_test(page):
    """Clicks the second legend entry of the first section twice."""
    k = page.js("(() => { const s = document.querySelector('section.dtsec');"
                "const l = s && s.querySelectorAll('.legend label')[1];"
                "return l ? l.dataset.s : null; })()")
    if k is None:
        return None
    before = page.js(VISIBLE_JS + f"({json.dumps(k)})")
    sel = f"section.dtsec .legend label[data-s=\"{k}\"]"
    click(page, sel)
    after = page.js(VISIBLE_JS + f"({json.dumps(k)})")
    others = page.js(VISIBLE_JS + "('0')")
    click(page, sel)
    again = page.js(VISIBLE_JS + f"({json.dumps(k)})")
    return {"series": k, "before": before, "after": after, "again": again,
            "row0_after": others}


def copy_test(page):
    """Clicks the first explain command's copy button: the command must
    reach the clipboard ("copied") or, where the browser refuses that, be
    selected for the reader to copy ("selected: copy it")."""
    if not page.js("!!document.querySelector('button.copy')"):
        return None
    page.call("Browser.grantPermissions", permissions=["clipboardReadWrite",
                                                        "clipboardSanitizedWrite"])
    click(page, "button.copy")
    time.sleep(0.2)
    return page.js("(() => { const b = document.querySelector('button.copy');"
                   "return {button: b.textContent, command:"
                   "b.parentNode.querySelector('code').textContent,"
                   "selected: window.getSelection().toString(),"
                   "clipboard: null}; })()")


def shoot(page, path, selector=None, width=1280, scale=1, viewport=False):
    if viewport:
        clip = {"x": 0, "y": 0, "width": width, "height": 900}
    elif selector:
        clip = page.js(f"(() => {{ const r = document.querySelector({json.dumps(selector)})"
                       ".getBoundingClientRect(); return {x: r.x + scrollX, y: r.y + scrollY,"
                       " width: r.width, height: r.height}; })()")
    else:
        h = page.js("document.documentElement.scrollHeight")
        clip = {"x": 0, "y": 0, "width": width, "height": h}
    clip["scale"] = scale
    r = page.call("Page.captureScreenshot", format="png", clip=clip,
                  captureBeyondViewport=True)
    with open(path, "wb") as f:
        f.write(base64.b64decode(r["data"]))


def problems(summary, toggle, copied, errors):
    bad = [f"script or console error: {e}" for e in errors]
    if not summary:
        bad.append("no section (section.dtsec) on the page")
    for sec in summary:
        n = len(sec["legend"])
        for i, p in enumerate(sec["panels"]):
            if len(p) != n:
                bad.append(f"{sec['dtype']}: figure {i}: {len(p)} panel rows for {n} rows")
        if sec["dist"] != n:
            bad.append(f"{sec['dtype']}: {sec['dist']} distribution rows for {n} rows")
    if toggle:
        b, a, g = toggle["before"], toggle["after"], toggle["again"]
        if not (b["all"] > 0 and b["visible"] == b["all"]):
            bad.append(f"before the click, row {toggle['series']}: {b}")
        if a["visible"] != 0:
            bad.append(f"after a click on its legend entry row {toggle['series']} still "
                       f"shows {a['visible']} of {a['all']} figures")
        if g["visible"] != g["all"]:
            bad.append(f"a second click shows {g['visible']} of {g['all']} figures")
        if toggle["row0_after"]["visible"] != toggle["row0_after"]["all"]:
            bad.append("hiding one row hid another")
    if copied:
        got = copied["clipboard"] if copied["button"] == "copied" else copied["selected"]
        if got != copied["command"]:
            bad.append(f"the copy button gave {got!r} ({copied['button']}), not the "
                       f"command {copied['command']!r}")
    return bad


def check_page(page, path, full, shots, width, check, scale=1, first=None):
    page.events.clear()
    page.call("Page.navigate", url="file://" + path)
    page.wait_event("Page.loadEventFired")
    summary = page.js(SUMMARY_JS)
    glance = page.js(GLANCE_JS)
    if first:
        shoot(page, first, None, width, scale, viewport=True)
    for sel, out in shots:
        shoot(page, out, sel, width, scale)
    if full:
        shoot(page, full, None, width, scale)
    toggle = toggle_test(page)
    copied = copy_test(page)
    if copied and copied["button"] == "copied":
        copied["clipboard"] = page.js("navigator.clipboard.readText()")
    time.sleep(0.1)  # late console messages
    page.js("1")
    errors = page.errors()
    bad = problems(summary, toggle, copied, errors) if check else []
    return {"page": path, "sections": summary, "glance": glance, "toggle": toggle,
            "copy": copied, "errors": errors}, bad


def main(argv):
    args, pages, shots, full, check, width, scale = argv[1:], [], [], None, False, 1280, 1
    first = None
    i = 0
    while i < len(args):
        if args[i] == "--screenshot":
            full, i = args[i + 1], i + 2
        elif args[i] == "--viewport":
            first, i = args[i + 1], i + 2
        elif args[i] == "--shot":
            shots.append((args[i + 1], args[i + 2]))
            i += 3
        elif args[i] == "--check":
            check, i = True, i + 1
        elif args[i] == "--width":
            width, i = int(args[i + 1]), i + 2
        elif args[i] == "--scale":
            scale, i = float(args[i + 1]), i + 2
        elif args[i].startswith("-"):
            print(f"browser.py: unknown option {args[i]}", file=sys.stderr)
            return 2
        else:
            pages.append(os.path.abspath(args[i]))
            i += 1
    if not pages:
        print(__doc__, file=sys.stderr)
        return 2
    profile = tempfile.mkdtemp(prefix="ubchrome.")
    proc, status = None, 0
    try:
        proc, bws = start_chromium(profile)
        page = Page(WebSocket(page_socket(bws)))
        for domain in ("Page", "Runtime", "Log"):
            page.call(domain + ".enable")
        page.call("Emulation.setDeviceMetricsOverride", width=width, height=900,
                  deviceScaleFactor=1, mobile=False)
        for n, path in enumerate(pages):
            out, bad = check_page(page, path, full if n == 0 else None,
                                  shots if n == 0 else [], width, check, scale,
                                  first if n == 0 else None)
            print(json.dumps(out))
            for b in bad:
                print(f"browser.py: {os.path.basename(path)}: {b}", file=sys.stderr)
            status = 1 if bad else status
        return status
    finally:
        if proc:
            proc.kill()
            proc.wait()
        shutil.rmtree(profile, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main(sys.argv))
