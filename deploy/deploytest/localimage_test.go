package deploytest

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"encoding/json"
	"io"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/moby/buildkit/frontend/dockerfile/instructions"
)

// The images deploy/k8s/images.sh writes without a Docker engine must hold what the
// Dockerfile's images hold where it matters: every file a COPY of the final stages puts
// in the image, at the same path; the same user, entrypoint and environment
// (WIREBENCH_JAVA_WORKER for the JVM image); a /tmp. The tarballs come from
// WIREBENCH_K8S_IMAGES (a directory holding wirebench.tar and, if built,
// wirebench-jvm.tar), or are written here by images.sh (which builds the binary: about
// a minute). The JVM image is checked when its tarball is there (it needs `make java`).
func TestLocalImagesMatchDockerfile(t *testing.T) {
	if testing.Short() {
		t.Skip("writes the images (-short)")
	}
	dir := os.Getenv("WIREBENCH_K8S_IMAGES")
	if dir == "" {
		if _, err := exec.LookPath("go"); err != nil {
			t.Skip("no go to build the image with")
		}
		dir = t.TempDir()
		cmd := exec.Command("bash", filepath.Join(repoRoot, "deploy", "k8s", "images.sh"), "--no-jvm", "--no-import", "-o", dir)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("images.sh: %v\n%s", err, out)
		}
	}
	d := loadDockerfile(t)
	for _, c := range []struct{ stage, tarball string }{{"wirebench", "wirebench.tar"}, {"wirebench-jvm", "wirebench-jvm.tar"}} {
		t.Run(c.stage, func(t *testing.T) {
			p := filepath.Join(dir, c.tarball)
			if _, err := os.Stat(p); err != nil {
				if c.stage == "wirebench-jvm" {
					t.Skipf("no %s (images.sh writes it once `make java` has built the jar)", p)
				}
				t.Fatal(err)
			}
			img := readImage(t, p)
			s := d.stage(t, c.stage)
			var user string
			var entry []string
			env := map[string]string{}
			for _, cmd := range s.Commands {
				switch x := cmd.(type) {
				case *instructions.CopyCommand:
					dst := x.DestPath
					for _, src := range x.SourcePaths {
						want := dst
						if strings.HasSuffix(dst, "/") {
							want = path.Join(dst, path.Base(src))
						}
						if !img.files[strings.TrimPrefix(want, "/")] {
							t.Errorf("%s: the Dockerfile copies %s to %s; the local image has no %s", c.stage, src, dst, want)
						}
					}
				case *instructions.UserCommand:
					user = x.User
				case *instructions.EntrypointCommand:
					entry = x.CmdLine
				case *instructions.EnvCommand:
					for _, kv := range x.Env {
						env[kv.Key] = kv.Value
					}
				}
			}
			if img.config.User != user {
				t.Errorf("user %q, the Dockerfile's %q", img.config.User, user)
			}
			if !slices.Equal(img.config.Entrypoint, entry) {
				t.Errorf("entrypoint %q, the Dockerfile's %q", img.config.Entrypoint, entry)
			}
			for k, v := range env {
				if !slices.Contains(img.config.Env, k+"="+v) {
					t.Errorf("environment: no %s=%s (the Dockerfile's)", k, v)
				}
			}
			// distroless's and the JRE image's: the user's entry, a /tmp, the binary on the PATH.
			for _, f := range []string{"etc/passwd", "tmp", strings.TrimPrefix(binaryInImage, "/")} {
				if !img.files[f] {
					t.Errorf("no /%s", f)
				}
			}
			if !slices.ContainsFunc(img.config.Env, func(e string) bool {
				return strings.HasPrefix(e, "PATH=") && slices.Contains(strings.Split(e[5:], ":"), path.Dir(binaryInImage))
			}) {
				t.Errorf("PATH of %v does not hold %s", img.config.Env, path.Dir(binaryInImage))
			}
		})
	}
}

type localImage struct {
	files  map[string]bool
	config struct {
		User       string
		Entrypoint []string
		Env        []string
	}
}

// readImage reads a `docker save` tarball (what go-containerregistry's tarball package
// writes): manifest.json, the config, the layers' file names.
func readImage(t *testing.T, p string) localImage {
	t.Helper()
	entries := map[string][]byte{}
	f, err := os.Open(p)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	tr := tar.NewReader(f)
	for {
		h, err := tr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		b, err := io.ReadAll(tr)
		if err != nil {
			t.Fatal(err)
		}
		entries[h.Name] = b
	}
	var manifest []struct {
		Config string
		Layers []string
	}
	if err := json.Unmarshal(entries["manifest.json"], &manifest); err != nil || len(manifest) != 1 {
		t.Fatalf("%s: manifest.json: %v (%d images)", p, err, len(manifest))
	}
	var img localImage
	var cfg struct{ Config json.RawMessage }
	if err := json.Unmarshal(entries[manifest[0].Config], &cfg); err != nil {
		t.Fatalf("%s: config: %v", p, err)
	}
	if err := json.Unmarshal(cfg.Config, &img.config); err != nil {
		t.Fatalf("%s: config: %v", p, err)
	}
	img.files = map[string]bool{}
	for _, l := range manifest[0].Layers {
		var r io.Reader = bytes.NewReader(entries[l])
		if b := entries[l]; len(b) > 2 && b[0] == 0x1f && b[1] == 0x8b { // gzip
			zr, err := gzip.NewReader(r)
			if err != nil {
				t.Fatalf("%s: layer %s: %v", p, l, err)
			}
			r = zr
		}
		lr := tar.NewReader(r)
		for {
			h, err := lr.Next()
			if err == io.EOF {
				break
			}
			if err != nil {
				t.Fatalf("%s: layer %s: %v", p, l, err)
			}
			img.files[strings.TrimSuffix(h.Name, "/")] = true
		}
	}
	return img
}
