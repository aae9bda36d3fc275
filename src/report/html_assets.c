/* html_assets.c — the HTML page's stylesheet and script (html.h), inline so
 * that the page needs nothing else.  The script only adds behaviour: the
 * legend of a section hides and shows a row's figures (every element of
 * the section with that row's data-s), and each explain command has a
 * button that copies it.  Without it the page shows everything; in print
 * the buttons go and the colours stay. */
#include "html.h"

static const char style[] =
	"body{font:14px/1.45 sans-serif;margin:1.5em 2em;color:#222;max-width:1180px}\n"
	"h1{font-size:1.5em}h2{font-size:1.25em;border-bottom:1px solid #ccc;"
	"margin-top:1.8em}h3{font-size:1.05em;margin:1.4em 0 .3em}\n"
	"table{border-collapse:collapse;margin:.4em 0}\n"
	"th,td{border:1px solid #ddd;padding:.2em .5em;text-align:right;vertical-align:top}\n"
	"th{background:#f4f4f4}td:first-child{text-align:left;white-space:nowrap}\n"
	"code{font:12px monospace}small{color:#666}.meta,.note{color:#555}\n"
	".note{font-size:12.5px;max-width:1100px}\n"
	".sw{display:inline-block;width:.8em;height:.8em;border-radius:50%;"
	"margin-right:.35em;vertical-align:-.05em}\n"
	".legend{margin:.5em 0;position:sticky;top:0;background:#fff;padding:.3em 0;"
	"z-index:1;border-bottom:1px solid #eee}\n"
	".legend label{margin-right:1.2em;cursor:pointer;user-select:none;white-space:nowrap}\n"
	".legend label.offl{opacity:.4;text-decoration:line-through}\n"
	".off{display:none!important}\n"
	"svg{display:block;font:11px sans-serif}svg .small{font-size:9.5px;fill:#666}\n"
	".area{fill:#fcfcfc;stroke:#bbb}.grid{stroke:#ececec}.tick{stroke:#999}\n"
	".band{stroke:#ddd;stroke-dasharray:2 2}.half{stroke:#999;stroke-dasharray:4 3}\n"
	".gap1{fill:#f1f1f1}.gap2{fill:#f6f6f6;stroke:#e0e0e0;stroke-dasharray:2 2}\n"
	".gapmark{fill:#888;font-size:13px}\n"
	".dots{fill:none;stroke-linecap:round;stroke-width:3.2}\n"
	".maxline{fill:none;stroke-width:1.6;opacity:.55}\n"
	".pname{font-weight:bold;font-size:12px}.facts{fill:#444}.quiet{fill:#888}\n"
	".panels .prow{display:flex;gap:6px;break-inside:avoid}\n"
	".nanrow{fill:#f7f7f7}.nanmark{fill:#5e3c99}.keybox{stroke:#999}\n"
	".map{margin:.2em 0}.spark{display:block}.sparkcell{padding:1px 4px}\n"
	".q0{stroke:#000;stroke-width:1.2}.q1{stroke:#000;stroke-dasharray:3 2}"
	".q2{stroke:#000;stroke-dasharray:1 2}.q3{stroke:#c00;stroke-width:1.5}\n"
	"table.dist td,table.dist th{vertical-align:middle}table.dist td{white-space:nowrap}\n"
	"table.worst{font-size:12.5px}\n"
	"tr.axisrow td{border:none}\n"
	"td.res{text-align:left}\n"
	"table.worst td{white-space:nowrap}table.worst td.res{white-space:normal}"
	"table.summary code{white-space:nowrap}\n"
	"svg .bandname{font-size:9px;fill:#999}tr.why td{border-top:none;text-align:left;"
	"white-space:normal;color:#555;padding-bottom:.5em}tr.entry td{border-bottom:none}\n"
	"button.copy{font-size:11px;margin-left:.3em}\n"
	"table.glance{width:100%;font-size:13px;line-height:1.35}"
	"table.glance td,table.glance th{text-align:left}table.glance small{font-size:11.5px}"
	".geq{color:#1a7f37;font-weight:bold}.gne{color:#b3261e;font-weight:bold}"
	"table.glance a{color:inherit;text-decoration:none}tr.gdt td{background:#f4f4f4;"
	"font-weight:bold}div.glance h2{margin-top:.4em}\n"
	"@media print{body{margin:0;max-width:none}.legend{position:static}"
	"button.copy,.legend input{display:none}"
	"*{-webkit-print-color-adjust:exact;print-color-adjust:exact}"
	"svg,table.dist tr,.prow{break-inside:avoid}}\n";

static const char script[] =
	"(function () {\n"
	"  document.querySelectorAll('section.dtsec').forEach(function (sec) {\n"
	"    sec.querySelectorAll('.legend input').forEach(function (cb) {\n"
	"      cb.addEventListener('change', function () {\n"
	"        var k = cb.getAttribute('data-s');\n"
	"        sec.querySelectorAll('[data-s=\"' + k + '\"]').forEach(function (el) {\n"
	"          if (!el.closest('.legend')) el.classList.toggle('off', !cb.checked);\n"
	"        });\n"
	"        cb.parentNode.classList.toggle('offl', !cb.checked);\n"
	"      });\n"
	"    });\n"
	"  });\n"
	"  document.querySelectorAll('button.copy').forEach(function (b) {\n"
	"    b.addEventListener('click', function () {\n"
	"      var code = b.parentNode.querySelector('code'), text = code.textContent;\n"
	"      function shown(ok) {\n"
	"        b.textContent = ok ? 'copied' : 'selected: copy it';\n"
	"        setTimeout(function () { b.textContent = 'copy'; }, 2000);\n"
	"      }\n"
	"      function select() {\n"
	"        var r = document.createRange(), s = window.getSelection();\n"
	"        r.selectNodeContents(code); s.removeAllRanges(); s.addRange(r);\n"
	"        try { return document.execCommand('copy'); } catch (e) { return false; }\n"
	"      }\n"
	"      if (navigator.clipboard && window.isSecureContext)\n"
	"        navigator.clipboard.writeText(text).then(function () { shown(true); },\n"
	"          function () { shown(select()); });\n"
	"      else shown(select());\n"
	"    });\n"
	"  });\n"
	"})();\n";

void ub_html_style(FILE *f)
{
	fputs(style, f);
}

void ub_html_script(FILE *f)
{
	fputs(script, f);
}
