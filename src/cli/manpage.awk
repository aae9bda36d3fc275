# manpage.awk — the manual page ulpbench.1, made by make from the help
# the program prints, so that the two never say different things.
#
# Usage: { ulpbench --help; for c in COMMANDS; do echo "@@ $c";
#          ulpbench $c --help; done; } | awk -v version=V -f manpage.awk
#
# The main help's first line is the synopsis, the lines up to the first
# option line the description; each option line ("  -m, --mode LIST  text")
# becomes a tagged paragraph, a line indented further continues the one
# before; "Commands (...):" lists the commands; "Exit status:" and what
# follows become EXIT STATUS.  Each "@@ NAME" starts that command's help,
# set the same way under COMMANDS.  Text is escaped for roff: backslashes,
# and a leading dot or quote.

function esc(s) {
	gsub(/\\/, "\\e", s)
	gsub(/-/, "\\-", s)
	if (s ~ /^[.']/)
		s = "\\&" s
	return s
}

# An option line: its tag (the switches and argument) and its text, split
# where the two-space gap after the tag starts.
function option(line,   tag, text, p) {
	sub(/^ +/, "", line)
	p = match(line, /  +/)
	# a tag too wide for its column: the switches and their argument
	if (!p && match(line, /^(-[A-Za-z], )?--[a-z-]+ [^ ]+ /)) {
		p = RLENGTH
		RLENGTH = 1
	}
	if (p) {
		tag = substr(line, 1, p - 1)
		text = substr(line, p + RLENGTH)
	} else {
		tag = line
		text = ""
	}
	printf ".TP\n.B %s\n%s\n", esc(tag), esc(text)
}

function section(name) {
	printf ".SH %s\n", name
}

BEGIN {
	part = "head"
	printf ".TH ULPBENCH 1 \"\" \"ulpbench %s\" \"User Commands\"\n", version
	section("NAME")
	print "ulpbench \\- test a GPU kernel's accuracy under every compile mode against a correctly rounded reference and PyTorch"
}

/^@@ / {
	if (!commands) {
		section("COMMANDS")
		commands = 1
	}
	printf ".SS %s\n", esc($2)
	part = "cmd"
	first = 1
	next
}

part == "cmd" && first { # the usage lines, as printed
	printf ".nf\n%s\n", esc($0)
	first = 0
	innf = 1
	next
}

innf && /^ +\[/ { print esc($0); next }
innf { print ".fi"; innf = 0 }

/^usage: / && part == "head" {
	section("SYNOPSIS")
	sub(/^usage: /, "")
	printf ".nf\n%s\n.fi\n", esc($0)
	section("DESCRIPTION")
	next
}

/^Commands \(/ {
	section("SUBCOMMANDS")
	printf "%s\n", esc($0)
	part = "list"
	next
}

/^Exit status:/ && part != "cmd" {
	section("EXIT STATUS")
	part = "exit"
}

/^$/ { print ".PP"; next }

/^ *-/ && part == "head" { section("OPTIONS"); part = "opts" }
/^ *-/ && part != "exit" { option($0); next }

/^  [a-z]/ && part == "list" { option($0); next }

/^      +/ { sub(/^ +/, ""); print esc($0); next }

{ print esc($0) }

END {
	section("FILES")
	print "Compile caches in $XDG_CACHE_HOME/ulpbench (default ~/.cache/ulpbench)."
	section("SEE ALSO")
	print "The manual in the docs/ folder of the source tree (README.md, docs/cli.md, docs/user-kernels.md, docs/metrics.md, docs/csv.md)."
}
