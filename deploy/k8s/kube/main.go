// Command kube is the local cluster's programs in one binary (as hyperkube once was):
// the first argument, or the name it is called by, picks etcd, kube-apiserver,
// kube-controller-manager, kube-scheduler, kubelet or kubectl. deploy/k8s/cluster.sh
// builds it once per version pair and links the names to it.
package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	_ "time/tzdata"

	"github.com/spf13/cobra"
	"go.etcd.io/etcd/server/v3/etcdmain"
	"k8s.io/component-base/cli"
	"k8s.io/component-base/logs"
	_ "k8s.io/component-base/logs/json/register"
	_ "k8s.io/component-base/metrics/prometheus/clientgo"
	_ "k8s.io/component-base/metrics/prometheus/version"
	kubectlcmd "k8s.io/kubectl/pkg/cmd"
	kubectlutil "k8s.io/kubectl/pkg/cmd/util"
	apiserver "k8s.io/kubernetes/cmd/kube-apiserver/app"
	controllermanager "k8s.io/kubernetes/cmd/kube-controller-manager/app"
	scheduler "k8s.io/kubernetes/cmd/kube-scheduler/app"
	kubelet "k8s.io/kubernetes/cmd/kubelet/app"
)

var programs = map[string]func() *cobra.Command{
	"kube-apiserver":          apiserver.NewAPIServerCommand,
	"kube-controller-manager": controllermanager.NewControllerManagerCommand,
	"kube-scheduler":          func() *cobra.Command { return scheduler.NewSchedulerCommand() },
	"kubelet":                 func() *cobra.Command { return kubelet.NewKubeletCommand(context.Background()) },
}

func main() {
	name := filepath.Base(os.Args[0])
	args := os.Args
	if name == "kube" || strings.HasPrefix(name, "kube-bin") {
		if len(args) < 2 {
			fmt.Fprintln(os.Stderr, "usage: kube etcd|kube-apiserver|kube-controller-manager|kube-scheduler|kubelet|kubectl [flags]")
			os.Exit(2)
		}
		name, args = args[1], append([]string{args[1]}, args[2:]...)
	}
	os.Args = args
	switch name {
	case "etcd":
		etcdmain.Main(args)
		return
	case "kubectl":
		logs.GlogSetter(kubectlcmd.GetLogVerbosity(args)) //nolint:errcheck
		if err := cli.RunNoErrOutput(kubectlcmd.NewDefaultKubectlCommand()); err != nil {
			kubectlutil.CheckErr(err)
		}
		return
	}
	newCommand, ok := programs[name]
	if !ok {
		fmt.Fprintf(os.Stderr, "kube: unknown program %q\n", name)
		os.Exit(2)
	}
	os.Exit(cli.Run(newCommand()))
}
