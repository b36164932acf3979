package main

import "os"

// The environment variables of call's and conform's --address: today's, and its
// former name (before 2026-11-29), still read with a note.
const (
	addressEnv       = "WIREBENCH_ADDRESS"
	formerAddressEnv = "WIREBENCH_TARGET"
)

// formerAddress is --address's former name, --target (-t), hidden from the help and
// still read as --address with a note (2026-11-29: "target" is the compared thing;
// the outside server's is its address). bench, capacity, call and conform embed it.
type formerAddress struct {
	Target string `name:"target" short:"t" hidden:"" placeholder:"ADDR" help:"Deprecated: --address."`
}

// address returns the server's address the command was given and, when it was given
// under a former name, the note that says the new one. addr is --address's value;
// env says the command reads the environment (WIREBENCH_ADDRESS, which kong has put
// in addr, and the former WIREBENCH_TARGET, read here). The flags win over the
// environment, as they do elsewhere; --target and --address together are refused.
func (f formerAddress) address(addr string, env bool) (string, string, error) {
	fromEnv := env && addr != "" && addr == os.Getenv(addressEnv)
	switch {
	case f.Target != "" && addr != "" && !fromEnv:
		return "", "", usagef("--target and --address are one flag (--target is its former name): give --address")
	case f.Target != "":
		return f.Target, "--target is deprecated: it is --address now (read as --address)", nil
	case env && addr == "" && os.Getenv(formerAddressEnv) != "":
		return os.Getenv(formerAddressEnv), formerAddressEnv + " is deprecated: it is " + addressEnv + " now (read as " + addressEnv + ")", nil
	}
	return addr, "", nil
}
