package report

import (
	"bytes"
	"context"
	"image"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/wirebench/wirebench/internal/testtool"
)

// TestHTMLInChromium renders the HTML report in headless Chromium and checks
// that a page was drawn: the screenshot decodes, has the window's size and is
// not blank. It skips where chromium is not installed, and fails in CI
// (scripts/install-tools.sh installs it there).
func TestHTMLInChromium(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a browser")
	}
	bin := ""
	for _, name := range []string{"chromium", "chromium-browser"} {
		if p, err := exec.LookPath(name); err == nil {
			bin = p
			break
		}
	}
	if bin == "" {
		testtool.Missing(t, "chromium not installed (apt-get install chromium): HTML not checked in a browser")
	}
	dir := t.TempDir()
	page := filepath.Join(dir, "report.html")
	var buf bytes.Buffer
	if err := WriteHTML(&buf, fixture(t)); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(page, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	shot := filepath.Join(dir, "shot.png")
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, "--headless", "--disable-gpu", "--no-sandbox",
		"--disable-dev-shm-usage", "--hide-scrollbars", "--user-data-dir="+filepath.Join(dir, "profile"),
		"--screenshot="+shot, "--window-size=1400,5000", "file://"+page)
	cmd.Env = append(os.Environ(), "HOME="+dir) // no writes to the user's profile
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("chromium: %v\n%s", err, out)
	}
	f, err := os.Open(shot)
	if err != nil {
		t.Fatalf("no screenshot: %v\n%s", err, out)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatalf("screenshot does not decode: %v", err)
	}
	if b := img.Bounds(); b.Dx() != 1400 || b.Dy() != 5000 {
		t.Errorf("screenshot is %v, want 1400×5000", b.Size())
	}
	if n := distinctColors(img, 64); n < 64 {
		t.Errorf("screenshot has %d colours: a blank or unstyled page?", n)
	}
}

// distinctColors counts the colours of img, stopping at limit.
func distinctColors(img image.Image, limit int) int {
	seen := map[[4]uint32]bool{}
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y += 3 {
		for x := b.Min.X; x < b.Max.X; x += 3 {
			r, g, bl, a := img.At(x, y).RGBA()
			seen[[4]uint32{r, g, bl, a}] = true
			if len(seen) >= limit {
				return len(seen)
			}
		}
	}
	return len(seen)
}
