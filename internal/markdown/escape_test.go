package markdown

import "testing"

func TestEscape(t *testing.T) {
	tests := []struct{ in, want string }{
		// A plain benchmark name is left alone.
		{"grpc-proto/tcp/echo[payload=1024]/closed-c50", "grpc-proto/tcp/echo[payload=1024]/closed-c50"},
		// "|" would end a table cell.
		{"a|b", `a\|b`},
		// "*" and "_" would start emphasis; "\" must be escaped first, or the
		// backslashes added for the others would be doubled.
		{`*x*_y_\`, `\*x\*\_y\_\\`},
		// A backtick would open a code span.
		{"`rm`", "\\`rm\\`"},
		// "<" would open raw HTML; ">" alone cannot and is left as it reads.
		{"<script>", "&lt;script>"},
		{"need >= 4 samples", "need >= 4 samples"},
		// A newline would end a table row or a list item.
		{"one\r\ntwo", "one two"},
	}
	for _, tt := range tests {
		if got := Escape(tt.in); got != tt.want {
			t.Errorf("Escape(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestCode(t *testing.T) {
	// A backtick inside a code span would close it.
	if got, want := Code("old`.json"), "old'.json"; got != want {
		t.Errorf("Code = %q, want %q", got, want)
	}
}
