# doccmds.awk — the commands and files of the documentation's code blocks,
# as a shell script for tests/doccmds.test.
#
# Usage: awk -f doccmds.awk README.md docs/*.md
#
# In each fenced code block (``` ... ```) of each file:
#   - a block whose first line is `// NAME.EXT` is the file NAME.EXT, as the
#     text says ("// my.cu");
#   - `cat > NAME <<'EOF'` ... `EOF` (in a block without `$ ` prompts) writes
#     the file NAME: a heredoc, as a shell would run it;
#   - a command is a line starting with `ulpbench ` or `./ulpbench ` (or
#     `pip ` or `pytest `: the Python package's), or a part of an `&&`
#     chain that does; in a transcript (a block with `$ ` prompt
#     lines) only the prompt lines are commands, the rest is output.  A line
#     ending in `\` continues on the next one.
#   - In a transcript, the lines after a prompt line up to the next one are
#     what the command prints (its standard output, then its standard
#     error), `...` standing for any number of lines: the command runs as
#     printed (no smaller -n) and its output must read so.
#   - A trailing comment that says `exit N without a GPU` or ends in `exit N`
#     (`# on the GPU (exit 4 without a GPU, saying why)`, `# exit 1`) gives
#     the command's documented exit status; otherwise it is 0.  The test runs
#     without a GPU.
#   - A synopsis or template (`[--seed S]`, `--list-ops | --list-modes`,
#     `--op OP`: an optional part in brackets, alternatives, or a word in
#     capitals standing for a value) is not a command.
#
# Output, one call per item, the text in a quoted heredoc:
#   doc_file WHERE NAME <<'UB_DOC_EOF' / lines / UB_DOC_EOF
#   doc_cmd WHERE STATUS <<'UB_DOC_EOF' / command / UB_DOC_EOF
#   doc_tcmd WHERE STATUS <<'UB_DOC_EOF' / command / UB_DOC_EOF (a transcript's),
#     then doc_out WHERE <<'UB_DOC_EOF' / its output / UB_DOC_EOF
#   doc_template WHERE <<'UB_DOC_EOF' / command / UB_DOC_EOF
# WHERE is FILE:LINE of the item's first line.

function emit(kind, where, arg, text) {
	if (text ~ /(^|\n)UB_DOC_EOF(\n|$)/) {
		printf "doccmds.awk: %s: a line reads UB_DOC_EOF\n", where > "/dev/stderr"
		exit 2
	}
	printf "%s '%s'%s <<'UB_DOC_EOF'\n%s\nUB_DOC_EOF\n", kind, where, arg, text
}

# A word in capitals (two letters or more, digits allowed) between
# separators stands for a value: NAME, FILE.npy, LO:HI, 0xBITS; one given
# a number (--constexpr BLOCK=1024) is a name, not a value.
function is_template(cmd,   words, i, n) {
	if (cmd ~ /\[-/ || cmd ~ /\| *-/)
		return 1
	# a name in capitals given a number is no placeholder: BLOCK=1024
	gsub(/[A-Z][A-Z0-9_]*=[0-9]/, "v=0", cmd)
	n = split(cmd, words, /[][ =:,.|'"(){}]+/)
	for (i = 1; i <= n; i++)
		if (words[i] ~ /^(0x)?[A-Z][A-Z0-9_]+$/)
			return 1
	return 0
}

function command(where, text, kind,   comment, status, p) {
	comment = ""
	p = index(text, " #")
	if (p > 0) {
		comment = substr(text, p + 2)
		text = substr(text, 1, p - 1)
	}
	sub(/[ \t]+$/, "", text)
	sub(/^\.\//, "", text)
	status = 0
	if (match(comment, /(^|[^A-Za-z])exit [0-9]+ without a GPU/) ||
	    match(comment, /(^|[^A-Za-z])exit [0-9]+\)?[ \t]*$/)) {
		status = substr(comment, RSTART, RLENGTH)
		sub(/.*exit /, "", status)
		sub(/[^0-9].*/, "", status)
	}
	if (is_template(text))
		emit("doc_template", where, "", text)
	else
		emit(kind, where, " " status, text)
}

# The block's lines are line[1..nline], its first line at file line first.
function block(   i, j, transcript, text, where, name, term, body, parts, np, k, seg, start) {
	if (nline > 0 && line[1] ~ /^\/\/ [A-Za-z0-9_.-]+\.[A-Za-z0-9]+$/) {
		name = substr(line[1], 4)
		body = line[1]
		for (i = 2; i <= nline; i++)
			body = body "\n" line[i]
		emit("doc_file", FILENAME ":" first, " '" name "'", body)
		return
	}
	transcript = 0
	for (i = 1; i <= nline; i++)
		if (line[i] ~ /^\$ /)
			transcript = 1
	for (i = 1; i <= nline; i++) {
		text = line[i]
		where = FILENAME ":" (first + i - 1)
		if (transcript) {
			if (text !~ /^\$ /)
				continue
			text = substr(text, 3)
		}
		start = i
		while (text ~ /\\$/ && i < nline) {
			sub(/[ \t]*\\$/, " ", text)
			i++
			seg = line[i]
			sub(/^[ \t]+/, "", seg)
			text = text seg
		}
		if (!transcript && text ~ /^cat > *[^ <]+ *<< *['"]?[A-Za-z_]+['"]? *$/) {
			name = text
			sub(/^cat > */, "", name)
			sub(/ *<<.*/, "", name)
			term = text
			sub(/.*<< */, "", term)
			gsub(/['" ]/, "", term)
			body = ""
			for (j = i + 1; j <= nline && line[j] != term; j++)
				body = body (j > i + 1 ? "\n" : "") line[j]
			emit("doc_file", where, " '" name "'", body)
			i = j
			continue
		}
		np = split(text, parts, / *&& */)
		for (k = 1; k <= np; k++) {
			seg = parts[k]
			sub(/^[ \t]+/, "", seg)
			if (seg ~ /^(\.\/)?ulpbench / || seg ~ /^(pip|pytest) /)
				command(where, seg, transcript ? "doc_tcmd" : "doc_cmd")
		}
		if (transcript) { # the output shown, up to the next prompt
			body = ""
			for (j = i + 1; j <= nline && line[j] !~ /^\$ /; j++)
				body = body (j > i + 1 ? "\n" : "") line[j]
			emit("doc_out", FILENAME ":" (first + start - 1), "", body)
		}
	}
}

FNR == 1 { infence = 0 }
/^```/ {
	if (infence) {
		block()
		infence = 0
	} else {
		infence = 1
		nline = 0
		first = FNR + 1
	}
	next
}
infence { line[++nline] = $0 }
