package deploytest

import (
	"fmt"
	"net"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/apimachinery/pkg/util/validation"

	"github.com/wirebench/wirebench/control"
	"github.com/wirebench/wirebench/protocol"
	"github.com/wirebench/wirebench/runner"
	"github.com/wirebench/wirebench/spec"
	_ "github.com/wirebench/wirebench/stack/all"
	"github.com/wirebench/wirebench/suite"
)

// The objects the manifests must define, by name.
const (
	namespace    = "wirebench"
	serverSTS    = "wirebench-server"
	clientSTS    = "wirebench-client"
	driverJob    = "wirebench-driver"
	tokenSecret  = "wirebench-token"
	resultsClaim = "wirebench-results"
	fetchPod     = "wirebench-fetch-results"
	helperImage  = "busybox:1.37.0" // pinned: a shell with nc and tar, for the driver's wait and kubectl cp
	// minTokenLen is the shortest token a worker accepts (docs/distributed.md,
	// "Authentication": at least 16 characters).
	minTokenLen = 16
)

// The files kustomization.yaml leaves out, on purpose: the token template and the pod
// that copies results off.
var notKustomized = []string{"secret.yaml", "fetch-results.yaml"}

// wantObjects is every object of every manifest file: nothing missing, nothing extra.
var wantObjects = []string{
	"client-workers.yaml: Service wirebench-client",
	"client-workers.yaml: StatefulSet wirebench-client",
	"driver-job.yaml: Job wirebench-driver",
	"fetch-results.yaml: Pod wirebench-fetch-results",
	"namespace.yaml: Namespace wirebench",
	"results-pvc.yaml: PersistentVolumeClaim wirebench-results",
	"secret.yaml: Secret wirebench-token",
	"server-worker.yaml: Service wirebench-server",
	"server-worker.yaml: StatefulSet wirebench-server",
}

func TestManifestsDecodeStrictly(t *testing.T) {
	objs := loadObjects(t)
	var got []string
	for _, o := range objs {
		got = append(got, o.String())
	}
	slices.Sort(got)
	if !slices.Equal(got, wantObjects) {
		t.Errorf("objects:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(wantObjects, "\n"))
	}
	for _, o := range objs {
		m := o.obj.(metav1.Object)
		if _, ok := o.obj.(*corev1.Namespace); ok {
			if m.GetNamespace() != "" {
				t.Errorf("%s: a Namespace has no namespace", o)
			}
		} else if m.GetNamespace() != namespace {
			t.Errorf("%s: namespace %q, want %q (the workers' DNS names in the driver's URLs name it)", o, m.GetNamespace(), namespace)
		}
		// Services, and StatefulSets whose names become pod host names, need DNS labels.
		for _, msg := range validation.IsDNS1035Label(m.GetName()) {
			t.Errorf("%s: name: %s", o, msg)
		}
	}
}

func TestKustomization(t *testing.T) {
	k := loadKustomization(t)
	if k.APIVersion != "kustomize.config.k8s.io/v1beta1" || k.Kind != "Kustomization" {
		t.Errorf("%s: apiVersion %q kind %q", kustomizationFile, k.APIVersion, k.Kind)
	}
	var want []string
	for _, f := range manifestFiles(t) {
		if f != kustomizationFile && !slices.Contains(notKustomized, f) {
			want = append(want, f)
		}
	}
	got := slices.Sorted(slices.Values(k.Resources))
	if !slices.Equal(got, want) {
		t.Errorf("%s: resources %q, want every manifest but %q: %q", kustomizationFile, k.Resources, notKustomized, want)
	}
	for _, f := range notKustomized {
		if _, err := os.Stat(filepath.Join(manifestDir, f)); err != nil {
			t.Errorf("%s: %v", f, err)
		}
	}
	// kustomize's images: rewrites the image whose name matches: it must match the
	// wirebench containers' image, or pointing it at a registry changes nothing.
	s := loadSet(t)
	for _, c := range allContainers(s) {
		if c.c.Command[0] != "wirebench" {
			continue
		}
		repo, tag := splitImage(c.c.Image)
		i := slices.IndexFunc(k.Images, func(im struct {
			Name    string `json:"name"`
			NewName string `json:"newName"`
			NewTag  string `json:"newTag"`
		}) bool {
			return im.Name == repo
		})
		if i < 0 {
			t.Errorf("%s: image %s is not among %s's images, so users cannot point it at their registry there", c, c.c.Image, kustomizationFile)
		} else if im := k.Images[i]; im.NewName != repo || im.NewTag != tag {
			t.Errorf("%s: image %s, but %s makes it %s:%s: keep the two in step", c, c.c.Image, kustomizationFile, im.NewName, im.NewTag)
		}
	}
}

// container is one container of a pod template, with where it is.
type container struct {
	owner string // Kind/name
	pod   *corev1.PodSpec
	c     corev1.Container
	init  bool
}

func (c container) String() string { return c.owner + " container " + c.c.Name }

// podSpecs returns every pod template of the manifests, by Kind/name.
func podSpecs(s set) map[string]*corev1.PodSpec {
	m := map[string]*corev1.PodSpec{}
	for _, st := range all[*appsv1.StatefulSet](s) {
		m["StatefulSet/"+st.Name] = &st.Spec.Template.Spec
	}
	for _, j := range all[*batchv1.Job](s) {
		m["Job/"+j.Name] = &j.Spec.Template.Spec
	}
	for _, p := range all[*corev1.Pod](s) {
		m["Pod/"+p.Name] = &p.Spec
	}
	return m
}

func allContainers(s set) []container {
	var out []container
	for owner, ps := range podSpecs(s) {
		for _, c := range ps.InitContainers {
			out = append(out, container{owner, ps, c, true})
		}
		for _, c := range ps.Containers {
			out = append(out, container{owner, ps, c, false})
		}
	}
	slices.SortFunc(out, func(a, b container) int { return strings.Compare(a.String(), b.String()) })
	return out
}

// splitImage splits REPO:TAG.
func splitImage(image string) (repo, tag string) {
	i := strings.LastIndex(image, ":")
	if i < 0 || strings.Contains(image[i:], "/") {
		return image, ""
	}
	return image[:i], image[i+1:]
}

// TestContainers pins every container: its image, what it runs, and that the
// wirebench ones run the image's own binary the way its ENTRYPOINT does.
func TestContainers(t *testing.T) {
	s := loadSet(t)
	k := loadKustomization(t)
	if len(k.Images) == 0 {
		t.Fatalf("%s: no images entry", kustomizationFile)
	}
	wirebench := k.Images[0].Name + ":" + k.Images[0].NewTag
	type want struct {
		image   string
		command []string // a prefix of command
		arg0    string   // the subcommand, for wirebench
	}
	wants := map[string]want{
		"StatefulSet/wirebench-server container worker":   {wirebench, []string{"wirebench"}, "worker"},
		"StatefulSet/wirebench-client container worker":   {wirebench, []string{"wirebench"}, "worker"},
		"Job/wirebench-driver container driver":           {wirebench, []string{"wirebench"}, "run"},
		"Job/wirebench-driver container wait-for-workers": {helperImage, []string{"sh", "-c"}, ""},
		"Pod/wirebench-fetch-results container fetch":     {helperImage, []string{"sleep"}, ""},
	}
	seen := map[string]bool{}
	for _, c := range allContainers(s) {
		w, ok := wants[c.String()]
		if !ok {
			t.Errorf("%s: a container the test does not know: add it to the test", c)
			continue
		}
		seen[c.String()] = true
		if c.c.Image != w.image {
			t.Errorf("%s: image %s, want %s", c, c.c.Image, w.image)
		}
		if _, tag := splitImage(c.c.Image); tag == "" || tag == "latest" {
			t.Errorf("%s: image %s has no pinned tag", c, c.c.Image)
		}
		if len(c.c.Command) < len(w.command) || !slices.Equal(c.c.Command[:len(w.command)], w.command) {
			t.Errorf("%s: command %q, want it to start with %q", c, c.c.Command, w.command)
		}
		if w.arg0 != "" && (len(c.c.Args) == 0 || c.c.Args[0] != w.arg0) {
			t.Errorf("%s: args %q, want the subcommand %s first", c, c.c.Args, w.arg0)
		}
	}
	for n := range wants {
		if !seen[n] {
			t.Errorf("no %s", n)
		}
	}
	// The pods run the image's entrypoint (command: [wirebench]) as the image's user.
	d := loadDockerfile(t)
	last := d.stages[len(d.stages)-1]
	uid, ok := numericNonRoot(imageUser(last))
	if !ok {
		t.Fatalf("Dockerfile: the default image's USER %q is not numeric non-root", imageUser(last))
	}
	for owner, ps := range podSpecs(s) {
		sc := ps.SecurityContext
		if sc == nil || sc.RunAsNonRoot == nil || !*sc.RunAsNonRoot || sc.RunAsUser == nil || *sc.RunAsUser != uid {
			t.Errorf("%s: want securityContext runAsNonRoot: true and runAsUser: %d (the image's USER)", owner, uid)
		}
	}
}

// guaranteed says why c does not count towards Guaranteed QoS: cpu and memory both
// requested and limited, requests equal to limits.
func guaranteed(c corev1.Container) error {
	for _, r := range []corev1.ResourceName{corev1.ResourceCPU, corev1.ResourceMemory} {
		req, okReq := c.Resources.Requests[r]
		lim, okLim := c.Resources.Limits[r]
		switch {
		case !okReq || !okLim:
			return fmt.Errorf("%s: want both a request and a limit", r)
		case req.Cmp(lim) != 0:
			return fmt.Errorf("%s: request %s, limit %s: want them equal", r, req.String(), lim.String())
		}
	}
	return nil
}

// TestGuaranteedQoS: a pod is Guaranteed only when every container, init containers
// included, has requests equal to limits; the static CPU manager gives exclusive CPUs
// only to a Guaranteed pod's containers that ask for whole CPUs, which the workers do.
func TestGuaranteedQoS(t *testing.T) {
	s := loadSet(t)
	for _, c := range allContainers(s) {
		if err := guaranteed(c.c); err != nil {
			t.Errorf("%s: %v", c, err)
		}
		if strings.HasPrefix(c.owner, "StatefulSet/") {
			cpu := c.c.Resources.Requests[corev1.ResourceCPU]
			if m := cpu.MilliValue(); m < 1000 || m%1000 != 0 {
				t.Errorf("%s: cpu %s: want whole CPUs (1, 2, ...): the static CPU manager pins only those", c, cpu.String())
			}
		}
	}
}

// secretFile finds the Secret file at p in a container: the Secret's name, its key,
// and the file's mode.
func secretFile(t *testing.T, c container, p string) (secret, key string, mode int32) {
	t.Helper()
	for _, m := range c.c.VolumeMounts {
		rel, ok := strings.CutPrefix(p, strings.TrimSuffix(m.MountPath, "/")+"/")
		if !ok || m.SubPath != "" {
			continue
		}
		if !m.ReadOnly {
			t.Errorf("%s: the token's mount %s is not readOnly", c, m.MountPath)
		}
		i := slices.IndexFunc(c.pod.Volumes, func(v corev1.Volume) bool { return v.Name == m.Name })
		if i < 0 || c.pod.Volumes[i].Secret == nil {
			t.Fatalf("%s: %s is mounted from volume %q, which is not a Secret volume", c, m.MountPath, m.Name)
		}
		sv := c.pod.Volumes[i].Secret
		mode = 0o644 // the API's default mode
		if sv.DefaultMode != nil {
			mode = *sv.DefaultMode
		}
		key = rel
		for _, it := range sv.Items {
			if it.Path == rel {
				key = it.Key
				if it.Mode != nil {
					mode = *it.Mode
				}
			}
		}
		return sv.SecretName, key, mode
	}
	t.Fatalf("%s: nothing is mounted where %s is", c, p)
	return "", "", 0
}

// checkTokenFile checks that a container's --token-file is the token Secret's key,
// readable by the pod's non-root user.
func checkTokenFile(t *testing.T, s set, c container) {
	t.Helper()
	file := flagValue(t, c.String(), c.c.Args, "--token-file")
	name, key, mode := secretFile(t, c, file)
	if name != tokenSecret {
		t.Errorf("%s: --token-file %s is in Secret %q, want %q", c, file, name, tokenSecret)
	}
	sec := one[*corev1.Secret](s, tokenSecret)
	_, inString := sec.StringData[key]
	_, inData := sec.Data[key]
	if !inString && !inData {
		t.Errorf("%s: --token-file %s is key %q of Secret %s, which has no such key", c, file, key, tokenSecret)
	}
	// Secret files belong to root, with the pod's fsGroup as their group when set.
	sc := c.pod.SecurityContext
	byGroup := sc != nil && sc.FSGroup != nil && mode&0o040 != 0
	if mode&0o004 == 0 && !byGroup {
		t.Errorf("%s: the token file's mode %#o, and no fsGroup with group read: the non-root user cannot read it", c, mode)
	}
}

// readOnlyRootHasTmp checks that a container with a read-only root file system has a
// writable /tmp of its own.
func readOnlyRootHasTmp(t *testing.T, c container) {
	t.Helper()
	sc := c.c.SecurityContext
	if sc == nil || sc.ReadOnlyRootFilesystem == nil || !*sc.ReadOnlyRootFilesystem {
		return
	}
	for _, m := range c.c.VolumeMounts {
		i := slices.IndexFunc(c.pod.Volumes, func(v corev1.Volume) bool { return v.Name == m.Name })
		if m.MountPath == "/tmp" && !m.ReadOnly && i >= 0 && c.pod.Volumes[i].EmptyDir != nil {
			return
		}
	}
	t.Errorf("%s: a read-only root file system and no emptyDir at /tmp: Go's temporary files would fail", c)
}

// worker is one worker StatefulSet and what the driver needs of it.
type worker struct {
	sts  *appsv1.StatefulSet
	svc  *corev1.Service
	port int // the control port
}

// checkWorker checks a worker StatefulSet with its headless Service, and returns it.
func checkWorker(t *testing.T, s set, name string) worker {
	t.Helper()
	sts := one[*appsv1.StatefulSet](s, name)
	where := "StatefulSet/" + name
	podLabels := labels.Set(sts.Spec.Template.Labels)
	sel, err := metav1.LabelSelectorAsSelector(sts.Spec.Selector)
	if err != nil || sel.Empty() || !sel.Matches(podLabels) {
		t.Errorf("%s: selector %v does not select its own pods' labels %v", where, sts.Spec.Selector, podLabels)
	}
	// Its pods' DNS names come from the headless Service named in serviceName.
	svc := one[*corev1.Service](s, sts.Spec.ServiceName)
	if svc.Spec.ClusterIP != corev1.ClusterIPNone {
		t.Errorf("Service/%s: clusterIP %q, want None (headless: a DNS name per pod)", svc.Name, svc.Spec.ClusterIP)
	}
	if svcSel := labels.SelectorFromSet(svc.Spec.Selector); len(svc.Spec.Selector) == 0 || !svcSel.Matches(podLabels) {
		t.Errorf("Service/%s: selector %v does not select %s's pods", svc.Name, svc.Spec.Selector, where)
	}
	for _, other := range all[*appsv1.StatefulSet](s) {
		if other.Name != name && labels.SelectorFromSet(svc.Spec.Selector).Matches(labels.Set(other.Spec.Template.Labels)) {
			t.Errorf("Service/%s also selects StatefulSet/%s's pods", svc.Name, other.Name)
		}
	}

	if len(sts.Spec.Template.Spec.Containers) != 1 {
		t.Fatalf("%s: want one container", where)
	}
	c := container{where, &sts.Spec.Template.Spec, sts.Spec.Template.Spec.Containers[0], false}
	// --listen: TCP, on every address or a routable one (a loopback address cannot be
	// reached from the driver's pod), on the control port.
	listen := flagValue(t, c.String(), c.c.Args, "--listen")
	hostPort, ok := strings.CutPrefix(listen, "tcp://")
	if !ok {
		t.Fatalf("%s: --listen %s: want tcp://HOST:PORT", c, listen)
	}
	host, portStr, err := net.SplitHostPort(hostPort)
	if err != nil {
		t.Fatalf("%s: --listen %s: %v", c, listen, err)
	}
	if ip := net.ParseIP(host); host == "localhost" || (ip != nil && ip.IsLoopback()) {
		t.Errorf("%s: --listen %s is loopback: other pods cannot reach it", c, listen)
	}
	port, err := strconv.Atoi(portStr)
	if err != nil || port <= 0 {
		t.Fatalf("%s: --listen %s: want a fixed port (the Service and the driver name it)", c, listen)
	}
	// The control port: the container's named port, the Service's, the probe's.
	var named string
	for _, p := range c.c.Ports {
		if int(p.ContainerPort) == port {
			named = p.Name
		}
	}
	if named == "" {
		t.Errorf("%s: no container port %d, the one it listens on", c, port)
	}
	if len(svc.Spec.Ports) != 1 {
		t.Fatalf("Service/%s: want one port, the control port", svc.Name)
	}
	sp := svc.Spec.Ports[0]
	target := sp.TargetPort
	if int(sp.Port) != port || !(target == intstr.FromString(named) || target == intstr.FromInt32(int32(port))) {
		t.Errorf("Service/%s: port %d → %s, want %d → the worker's port %d (%q)", svc.Name, sp.Port, target.String(), port, port, named)
	}
	probe := c.c.ReadinessProbe
	if probe == nil || probe.TCPSocket == nil {
		t.Errorf("%s: want a TCP readiness probe on the control port", c)
	} else if pp := probe.TCPSocket.Port; !(pp == intstr.FromString(named) || pp == intstr.FromInt32(int32(port))) {
		t.Errorf("%s: the readiness probe checks port %s, not the control port %d", c, pp.String(), port)
	}
	checkTokenFile(t, s, c)
	readOnlyRootHasTmp(t, c)
	return worker{sts: sts, svc: svc, port: port}
}

// podDNSName is the DNS name of a StatefulSet's pod i under its headless Service:
// POD.SERVICE.NAMESPACE.svc (the cluster domain, cluster.local by default, comes from
// the pods' DNS search list).
func podDNSName(w worker, i int) string {
	return fmt.Sprintf("%s-%d.%s.%s.svc", w.sts.Name, i, w.svc.Name, w.sts.Namespace)
}

// requiredAntiAffinity says whether a pod spec must not share a node with pods that
// have these labels.
func requiredAntiAffinity(ps *corev1.PodSpec, other map[string]string) bool {
	if ps.Affinity == nil || ps.Affinity.PodAntiAffinity == nil {
		return false
	}
	for _, term := range ps.Affinity.PodAntiAffinity.RequiredDuringSchedulingIgnoredDuringExecution {
		sel, err := metav1.LabelSelectorAsSelector(term.LabelSelector)
		if err == nil && term.TopologyKey == "kubernetes.io/hostname" && len(term.Namespaces) == 0 && sel.Matches(labels.Set(other)) {
			return true
		}
	}
	return false
}

func TestWorkers(t *testing.T) {
	s := loadSet(t)
	srv := checkWorker(t, s, serverSTS)
	cli := checkWorker(t, s, clientSTS)
	if r := srv.sts.Spec.Replicas; r == nil || *r != 1 {
		t.Errorf("StatefulSet/%s: replicas %v, want 1: the driver drives one server worker", serverSTS, r)
	}
	if r := cli.sts.Spec.Replicas; r == nil || *r < 1 {
		t.Errorf("StatefulSet/%s: replicas %v, want 1 or more", clientSTS, r)
	}
	// Server and clients never on one node, whichever is scheduled first.
	if !requiredAntiAffinity(&srv.sts.Spec.Template.Spec, cli.sts.Spec.Template.Labels) {
		t.Errorf("StatefulSet/%s: no required anti-affinity (kubernetes.io/hostname) to the client workers' pods", serverSTS)
	}
	if !requiredAntiAffinity(&cli.sts.Spec.Template.Spec, srv.sts.Spec.Template.Labels) {
		t.Errorf("StatefulSet/%s: no required anti-affinity (kubernetes.io/hostname) to the server worker's pod", clientSTS)
	}
}

func TestDriverJob(t *testing.T) {
	s := loadSet(t)
	srv := checkWorker(t, s, serverSTS)
	cli := checkWorker(t, s, clientSTS)
	job := one[*batchv1.Job](s, driverJob)
	ps := &job.Spec.Template.Spec
	if ps.RestartPolicy != corev1.RestartPolicyNever || job.Spec.BackoffLimit == nil || *job.Spec.BackoffLimit != 0 {
		t.Errorf("Job/%s: want restartPolicy Never and backoffLimit 0: a failed run is resumed by hand, not rerun into a new directory", driverJob)
	}
	if len(ps.Containers) != 1 || len(ps.InitContainers) != 1 {
		t.Fatalf("Job/%s: want one container and one init container", driverJob)
	}
	c := container{"Job/" + driverJob, ps, ps.Containers[0], false}
	args := c.c.Args

	// The workers' URLs: the pods' DNS names under the headless Services, the port
	// each worker listens on; every client worker once.
	wantServer := fmt.Sprintf("tcp://%s:%d", podDNSName(srv, 0), srv.port)
	if got := flagValue(t, c.String(), args, "--server-worker"); got != wantServer {
		t.Errorf("%s: --server-worker %s, want %s", c, got, wantServer)
	}
	var wantClients []string
	for i := range int(*cli.sts.Spec.Replicas) {
		wantClients = append(wantClients, fmt.Sprintf("tcp://%s:%d", podDNSName(cli, i), cli.port))
	}
	if got := flagValues(args, "--client-worker"); !slices.Equal(got, wantClients) {
		t.Errorf("%s: --client-worker %q, want one per replica of StatefulSet/%s: %q", c, got, clientSTS, wantClients)
	}
	checkTokenFile(t, s, c)
	readOnlyRootHasTmp(t, c)

	// The init container waits for exactly these workers, HOST:PORT after the script
	// and its name ($0).
	init := ps.InitContainers[0]
	var wantWait []string
	for _, u := range append([]string{wantServer}, wantClients...) {
		wantWait = append(wantWait, strings.TrimPrefix(u, "tcp://"))
	}
	if cmd := init.Command; len(cmd) < 4 || !slices.Equal(cmd[:2], []string{"sh", "-c"}) || !slices.Equal(cmd[4:], wantWait) {
		t.Errorf("Job/%s init container %s: command %q, want sh -c SCRIPT NAME followed by %q", driverJob, init.Name, init.Command, wantWait)
	} else if !strings.Contains(cmd[2], `"$@"`) || !strings.Contains(cmd[2], "nc -w 2 ") || !strings.Contains(cmd[2], "</dev/null") || strings.Contains(cmd[2], "nc -z") {
		// nc -z is a busybox extra that Debian's busybox lacks (the local cluster
		// found out): connecting with stdin at its end works with every busybox nc.
		t.Errorf("Job/%s init container %s: the script does not wait on its arguments with nc -w 2 HOST PORT </dev/null: %q", driverJob, init.Name, cmd[2])
	}
	// Kubernetes expands $(NAME) in command and args; the script must not hold one.
	if regexp.MustCompile(`\$\([A-Za-z_]`).MatchString(strings.Join(init.Command, " ")) {
		t.Errorf("Job/%s init container %s: $(...) in its command, which Kubernetes would try to expand", driverJob, init.Name)
	}

	// The results: run writes --out, else runs/<time>/ under the working directory
	// (runner.RunsDir); that must be on the results volume, writable by the non-root user.
	out := path.Join(c.c.WorkingDir, runner.RunsDir)
	if o := flagValues(args, "--out"); len(o) > 0 {
		out = path.Join(c.c.WorkingDir, o[0])
	}
	if !path.IsAbs(out) {
		t.Fatalf("%s: results go to %q, relative to the image's working directory: set workingDir", c, out)
	}
	var mount *corev1.VolumeMount
	for i, m := range c.c.VolumeMounts {
		if out == m.MountPath || strings.HasPrefix(out, strings.TrimSuffix(m.MountPath, "/")+"/") {
			mount = &c.c.VolumeMounts[i]
		}
	}
	if mount == nil {
		t.Fatalf("%s: results go to %s, where no volume is mounted: they would be lost with the pod", c, out)
	}
	vi := slices.IndexFunc(ps.Volumes, func(v corev1.Volume) bool { return v.Name == mount.Name })
	if vi < 0 || ps.Volumes[vi].PersistentVolumeClaim == nil || ps.Volumes[vi].PersistentVolumeClaim.ClaimName != resultsClaim {
		t.Errorf("%s: results go to %s, which is not the PersistentVolumeClaim %s", c, out, resultsClaim)
	}
	one[*corev1.PersistentVolumeClaim](s, resultsClaim)
	if mount.ReadOnly {
		t.Errorf("%s: the results volume is mounted read-only", c)
	}
	if ps.SecurityContext == nil || ps.SecurityContext.FSGroup == nil {
		t.Errorf("Job/%s: no fsGroup: the results volume would be root's, unwritable by the non-root driver", driverJob)
	}

	// The fetch pod mounts the same claim at the same place, as its kubectl cp says.
	fp := one[*corev1.Pod](s, fetchPod)
	fm := fp.Spec.Containers[0].VolumeMounts
	fv := slices.IndexFunc(fp.Spec.Volumes, func(v corev1.Volume) bool {
		return v.PersistentVolumeClaim != nil && v.PersistentVolumeClaim.ClaimName == resultsClaim
	})
	if fv < 0 || len(fm) != 1 || fm[0].Name != fp.Spec.Volumes[fv].Name || fm[0].MountPath != mount.MountPath {
		t.Errorf("Pod/%s: want the claim %s mounted at %s, as in the driver", fetchPod, resultsClaim, mount.MountPath)
	}
	text, err := os.ReadFile(filepath.Join(manifestDir, "fetch-results.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	if cp := fmt.Sprintf("kubectl -n %s cp %s:%s ./%s", namespace, fetchPod, out, runner.RunsDir); !strings.Contains(string(text), cp) {
		t.Errorf("fetch-results.yaml: its instructions lack %q", cp)
	}
}

// TestDriverSuite checks that what the driver runs can run on these workers: every
// benchmark over TCP (a unix socket does not cross pods) or in process, and every
// stack one of the Go worker in the image.
func TestDriverSuite(t *testing.T) {
	s := loadSet(t)
	job := one[*batchv1.Job](s, driverJob)
	args := job.Spec.Template.Spec.Containers[0].Args
	if len(args) < 2 || args[0] != "run" || strings.HasPrefix(args[1], "-") {
		t.Fatalf("Job/%s: args %q, want run SUITE", driverJob, args)
	}
	selected := driverBenchmarks(t, args)
	if len(selected) == 0 {
		t.Fatalf("Job/%s: suite %s runs nothing", driverJob, args[1])
	}
	for _, b := range selected {
		if b.Spec.Transport != spec.TCP && b.Spec.Transport != spec.InProc {
			t.Errorf("Job/%s: %s is over %s, which does not cross pods", driverJob, b.Name, b.Spec.Transport)
		}
		r, err := control.Resolve(b.Spec)
		if err != nil {
			t.Fatalf("%s: %v", b.Name, err)
		}
		for _, stack := range []*protocol.Stack{r.Server, r.Client} {
			if stack.Worker != protocol.WorkerGo {
				t.Errorf("Job/%s: %s needs the %s worker, and the workers here run wirebench's Go worker", driverJob, b.Name, stack.Worker)
			}
		}
	}
}

// driverBenchmarks returns the benchmarks `wirebench run SUITE [--filter RE]` runs.
func driverBenchmarks(t *testing.T, args []string) []suite.Benchmark {
	t.Helper()
	st, err := suite.Load(args[1])
	if err != nil {
		t.Fatalf("Job/%s: %v", driverJob, err)
	}
	var filter *regexp.Regexp
	if f := flagValues(args, "--filter"); len(f) > 0 {
		filter = regexp.MustCompile(f[0])
	}
	return runner.Select(st, filter)
}

// TestTokenTemplate: the committed Secret is a template whose placeholder no worker
// accepts, so applying it as it is cannot leave workers guarded by a known token.
func TestTokenTemplate(t *testing.T) {
	s := loadSet(t)
	sec := one[*corev1.Secret](s, tokenSecret)
	if len(sec.Data) != 0 || len(sec.StringData) != 1 {
		t.Fatalf("Secret/%s: want one key in stringData, the placeholder", tokenSecret)
	}
	for key, v := range sec.StringData {
		if len(strings.TrimSpace(v)) >= minTokenLen {
			t.Errorf("Secret/%s: the placeholder %s=%q is a token a worker would accept (%d characters or more): keep it shorter", tokenSecret, key, v, minTokenLen)
		}
	}
	text, err := os.ReadFile(filepath.Join(manifestDir, "secret.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	for k := range sec.StringData {
		cmd := fmt.Sprintf(`kubectl -n %s create secret generic %s --from-literal=%s="$(openssl rand -hex 32)"`, namespace, tokenSecret, k)
		if !strings.Contains(string(text), cmd) {
			t.Errorf("secret.yaml: its instructions lack %s", cmd)
		}
	}
}

// TestRestrictedPodSecurity checks the pods against Pod Security Admission's
// "restricted" profile, which namespace.yaml enforces: a pod that broke it would be
// refused by the API server, not run.
func TestRestrictedPodSecurity(t *testing.T) {
	s := loadSet(t)
	ns := one[*corev1.Namespace](s, namespace)
	if got := ns.Labels["pod-security.kubernetes.io/enforce"]; got != "restricted" {
		t.Errorf("Namespace/%s: pod-security.kubernetes.io/enforce %q, want restricted", namespace, got)
	}
	for owner, ps := range podSpecs(s) {
		if ps.HostNetwork || ps.HostPID || ps.HostIPC {
			t.Errorf("%s: shares a host namespace", owner)
		}
		sc := ps.SecurityContext
		if sc == nil || sc.SeccompProfile == nil || sc.SeccompProfile.Type != corev1.SeccompProfileTypeRuntimeDefault {
			t.Errorf("%s: want securityContext.seccompProfile RuntimeDefault", owner)
		}
		for _, v := range ps.Volumes {
			if v.Secret == nil && v.EmptyDir == nil && v.PersistentVolumeClaim == nil && v.ConfigMap == nil && v.Projected == nil && v.DownwardAPI == nil {
				t.Errorf("%s: volume %s is of a type the restricted profile refuses", owner, v.Name)
			}
		}
	}
	for _, c := range allContainers(s) {
		sc := c.c.SecurityContext
		switch {
		case sc == nil:
			t.Errorf("%s: no securityContext", c)
			continue
		case sc.AllowPrivilegeEscalation == nil || *sc.AllowPrivilegeEscalation:
			t.Errorf("%s: want allowPrivilegeEscalation: false", c)
		case sc.Privileged != nil && *sc.Privileged:
			t.Errorf("%s: privileged", c)
		case sc.RunAsUser != nil && *sc.RunAsUser == 0:
			t.Errorf("%s: runs as root", c)
		}
		if sc.Capabilities == nil || !slices.Contains(sc.Capabilities.Drop, "ALL") || len(sc.Capabilities.Add) > 0 {
			t.Errorf("%s: want capabilities drop [ALL] and none added", c)
		}
		for _, p := range c.c.Ports {
			if p.HostPort != 0 {
				t.Errorf("%s: hostPort %d", c, p.HostPort)
			}
		}
	}
}
