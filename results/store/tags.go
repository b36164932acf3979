package store

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"time"
)

// DefaultFile is the store's file name in DefaultPath's directory.
const DefaultFile = "history.db"

// DefaultPath is the store of a user who names none: history.db in wirebench's
// directory under the user's data directory: $XDG_DATA_HOME/wirebench, else
// ~/.local/share/wirebench on Unix; on macOS and Windows the directory
// os.UserConfigDir gives (Application Support, %AppData%), where those systems keep
// application data.
func DefaultPath() (string, error) {
	if d := os.Getenv("XDG_DATA_HOME"); d != "" && filepath.IsAbs(d) {
		return filepath.Join(d, "wirebench", DefaultFile), nil
	}
	if runtime.GOOS == "darwin" || runtime.GOOS == "windows" || runtime.GOOS == "plan9" {
		d, err := os.UserConfigDir()
		if err != nil {
			return "", err
		}
		return filepath.Join(d, "wirebench", DefaultFile), nil
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return "", errors.New("no data directory: set XDG_DATA_HOME or HOME, or give --store")
	}
	return filepath.Join(home, ".local", "share", "wirebench", DefaultFile), nil
}

// DetectTags fills the tags left empty in t: the commit and branch from the CI's
// variables (GitHub Actions, GitLab CI) or from git in dir, the machine from
// $WIREBENCH_MACHINE or the host name. CI runners get a new host name for every
// job, so a CI records with an explicit machine name (docs/ci.md).
func DetectTags(ctx context.Context, dir string, t Tags) Tags {
	if t.Commit == "" {
		t.Commit = firstEnv("GITHUB_SHA", "CI_COMMIT_SHA")
	}
	if t.Branch == "" {
		// GITHUB_HEAD_REF is a pull request's branch; GITHUB_REF_NAME is otherwise the
		// branch (for a pull request it is "N/merge").
		t.Branch = firstEnv("GITHUB_HEAD_REF", "GITHUB_REF_NAME", "CI_COMMIT_REF_NAME")
	}
	if t.Commit == "" {
		t.Commit = git(ctx, dir, "rev-parse", "HEAD")
	}
	if t.Branch == "" {
		if b := git(ctx, dir, "rev-parse", "--abbrev-ref", "HEAD"); b != "HEAD" { // HEAD: detached
			t.Branch = b
		}
	}
	if t.Machine == "" {
		t.Machine = os.Getenv("WIREBENCH_MACHINE")
	}
	if t.Machine == "" {
		t.Machine, _ = os.Hostname()
	}
	return t
}

func firstEnv(names ...string) string {
	for _, n := range names {
		if v := os.Getenv(n); v != "" {
			return v
		}
	}
	return ""
}

// git runs a git query in dir, "" when git is missing or dir is no repository.
func git(ctx context.Context, dir string, args ...string) string {
	ctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, "git", args...)
	cmd.Dir = dir
	out, err := cmd.Output()
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(out))
}
