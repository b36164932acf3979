// Command image writes a one-layer container image as a tarball that
// `ctr images import` (and `docker load`) read, from files of this machine, without a
// Docker engine (github.com/google/go-containerregistry):
//
//	image -o wirebench.tar -tag wirebench:dev -user 65532:65532 -entrypoint wirebench \
//	    -env PATH=/usr/local/bin:/usr/bin:/bin -passwd -dir /tmp:1777 \
//	    bin/wirebench-static=/usr/local/bin/wirebench
//
// Each SRC=DST argument copies a file, or a directory tree, from SRC to DST in the
// image, keeping modes; symbolic links inside a copied tree stay links. -passwd writes
// /etc/passwd and /etc/group with root and the nonroot user 65532 (as distroless's
// images have). Every entry's time is 0, so the same inputs give the same image.
// deploy/k8s/images.sh builds the cluster's images with it.
package main

import (
	"archive/tar"
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/google/go-containerregistry/pkg/name"
	v1 "github.com/google/go-containerregistry/pkg/v1"
	"github.com/google/go-containerregistry/pkg/v1/empty"
	"github.com/google/go-containerregistry/pkg/v1/mutate"
	"github.com/google/go-containerregistry/pkg/v1/tarball"
)

type listFlag []string

func (l *listFlag) String() string     { return strings.Join(*l, ",") }
func (l *listFlag) Set(s string) error { *l = append(*l, s); return nil }

func main() {
	if err := run(os.Args[1:]); err != nil {
		fmt.Fprintln(os.Stderr, "image:", err)
		var u usageError
		if errors.As(err, &u) {
			os.Exit(2)
		}
		os.Exit(1)
	}
}

type usageError struct{ error }

func run(args []string) error {
	fl := flag.NewFlagSet("image", flag.ContinueOnError)
	out := fl.String("o", "", "the image tarball to write")
	tag := fl.String("tag", "", "the image's name, e.g. wirebench:dev")
	user := fl.String("user", "", "the user the image runs as, e.g. 65532:65532")
	workdir := fl.String("workdir", "", "the working directory")
	passwd := fl.Bool("passwd", false, "write /etc/passwd and /etc/group with root and nonroot (65532)")
	var entrypoint, envs, dirs, links listFlag
	fl.Var(&entrypoint, "entrypoint", "the entrypoint, one argument per flag")
	fl.Var(&envs, "env", "KEY=VALUE in the image's environment (repeatable)")
	fl.Var(&dirs, "dir", "PATH:MODE, an empty directory (octal mode, repeatable)")
	fl.Var(&links, "symlink", "LINK=TARGET, a symbolic link (repeatable)")
	if err := fl.Parse(args); err != nil {
		return usageError{err}
	}
	if *out == "" || *tag == "" {
		return usageError{errors.New("-o and -tag are needed")}
	}
	ref, err := name.NewTag(*tag)
	if err != nil {
		return usageError{fmt.Errorf("-tag %q: %w", *tag, err)}
	}
	l := newLayer()
	if *passwd {
		l.file("/etc/passwd", 0o644, []byte("root:x:0:0:root:/root:/sbin/nologin\nnonroot:x:65532:65532:nonroot:/home/nonroot:/sbin/nologin\n"))
		l.file("/etc/group", 0o644, []byte("root:x:0:\nnonroot:x:65532:\n"))
		l.dir("/home/nonroot", 0o700, 65532)
	}
	for _, d := range dirs {
		p, m, ok := strings.Cut(d, ":")
		mode, err := strconv.ParseUint(m, 8, 32)
		if !ok || err != nil || !path.IsAbs(p) {
			return usageError{fmt.Errorf("-dir %q: want /PATH:OCTALMODE", d)}
		}
		l.dir(p, int64(mode), 0)
	}
	for _, s := range links {
		link, target, ok := strings.Cut(s, "=")
		if !ok || !path.IsAbs(link) {
			return usageError{fmt.Errorf("-symlink %q: want /LINK=TARGET", s)}
		}
		l.symlink(link, target)
	}
	for _, a := range fl.Args() {
		src, dst, ok := strings.Cut(a, "=")
		if !ok || !path.IsAbs(dst) {
			return usageError{fmt.Errorf("%q: want SRC=/DST", a)}
		}
		if err := l.copy(src, dst); err != nil {
			return err
		}
	}
	data, err := l.bytes()
	if err != nil {
		return err
	}
	layer, err := tarball.LayerFromOpener(func() (io.ReadCloser, error) {
		return io.NopCloser(bytes.NewReader(data)), nil
	})
	if err != nil {
		return err
	}
	img, err := mutate.Append(empty.Image, mutate.Addendum{Layer: layer, History: v1.History{CreatedBy: "deploy/k8s/image", Created: v1.Time{Time: time.Unix(0, 0)}}})
	if err != nil {
		return err
	}
	cf, err := img.ConfigFile()
	if err != nil {
		return err
	}
	cf = cf.DeepCopy()
	cf.OS, cf.Architecture = "linux", "amd64"
	cf.Created = v1.Time{Time: time.Unix(0, 0)}
	cf.Config.Entrypoint = entrypoint
	cf.Config.Env = envs
	cf.Config.User = *user
	cf.Config.WorkingDir = *workdir
	img, err = mutate.ConfigFile(img, cf)
	if err != nil {
		return err
	}
	return tarball.WriteToFile(*out, ref, img)
}

// layer collects a tar's entries by path, parents made as needed, and writes them sorted.
type layer struct {
	entries map[string]entry
}

type entry struct {
	hdr  tar.Header
	data []byte
}

func newLayer() *layer { return &layer{entries: map[string]entry{}} }

func (l *layer) parents(p string) {
	for d := path.Dir(p); d != "/" && d != "."; d = path.Dir(d) {
		if _, ok := l.entries[d]; !ok {
			l.entries[d] = entry{hdr: tar.Header{Typeflag: tar.TypeDir, Mode: 0o755}}
		}
	}
}

// dir adds a directory; mode is tar's (0o1777 is world-writable and sticky).
func (l *layer) dir(p string, mode int64, uid int) {
	l.parents(p)
	l.entries[p] = entry{hdr: tar.Header{Typeflag: tar.TypeDir, Mode: mode, Uid: uid, Gid: uid}}
}

func (l *layer) file(p string, mode fs.FileMode, data []byte) {
	l.parents(p)
	l.entries[p] = entry{hdr: tar.Header{Typeflag: tar.TypeReg, Mode: int64(mode.Perm()), Size: int64(len(data))}, data: data}
}

func (l *layer) symlink(p, target string) {
	l.parents(p)
	l.entries[p] = entry{hdr: tar.Header{Typeflag: tar.TypeSymlink, Linkname: target, Mode: 0o777}}
}

// copy adds src (a file or a tree) at dst.
func (l *layer) copy(src, dst string) error {
	info, err := os.Lstat(src)
	if err != nil {
		return err
	}
	if !info.IsDir() {
		return l.copyOne(src, dst, info)
	}
	return filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(src, p)
		if err != nil {
			return err
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		return l.copyOne(p, path.Join(dst, filepath.ToSlash(rel)), info)
	})
}

func (l *layer) copyOne(src, dst string, info fs.FileInfo) error {
	switch {
	case info.IsDir():
		l.dir(dst, int64(info.Mode().Perm()), 0)
	case info.Mode()&fs.ModeSymlink != 0:
		target, err := os.Readlink(src)
		if err != nil {
			return err
		}
		l.symlink(dst, target)
	case info.Mode().IsRegular():
		data, err := os.ReadFile(src)
		if err != nil {
			return err
		}
		l.file(dst, info.Mode().Perm(), data)
	default:
		return fmt.Errorf("%s: not a file, directory or link", src)
	}
	return nil
}

func (l *layer) bytes() ([]byte, error) {
	paths := make([]string, 0, len(l.entries))
	for p := range l.entries {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	var buf bytes.Buffer
	tw := tar.NewWriter(&buf)
	for _, p := range paths {
		e := l.entries[p]
		h := e.hdr
		h.Name = strings.TrimPrefix(p, "/")
		if h.Typeflag == tar.TypeDir {
			h.Name += "/"
		}
		h.ModTime = time.Unix(0, 0)
		h.Format = tar.FormatPAX
		if err := tw.WriteHeader(&h); err != nil {
			return nil, err
		}
		if _, err := tw.Write(e.data); err != nil {
			return nil, err
		}
	}
	if err := tw.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}
