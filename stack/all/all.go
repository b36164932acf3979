// Package all registers every built-in protocol adapter. Import it for its side effect.
package all

import (
	_ "github.com/wirebench/wirebench/protocol/capnprpc"
	_ "github.com/wirebench/wirebench/protocol/connectproto"
	_ "github.com/wirebench/wirebench/protocol/direct"
	_ "github.com/wirebench/wirebench/protocol/grpcavro"
	_ "github.com/wirebench/wirebench/protocol/grpcproto"
	_ "github.com/wirebench/wirebench/protocol/httpjson"
	_ "github.com/wirebench/wirebench/protocol/netrpcgob"
	_ "github.com/wirebench/wirebench/protocol/thriftrpc"
	_ "github.com/wirebench/wirebench/protocol/websocketproto"
	_ "github.com/wirebench/wirebench/stack/capnpgo"
	_ "github.com/wirebench/wirebench/stack/coderwebsocket"
	_ "github.com/wirebench/wirebench/stack/connectgo"
	_ "github.com/wirebench/wirebench/stack/gofasthttp"
	_ "github.com/wirebench/wirebench/stack/gonethttpjson"
	_ "github.com/wirebench/wirebench/stack/gonetrpcgob"
	_ "github.com/wirebench/wirebench/stack/gotunedjson"
	_ "github.com/wirebench/wirebench/stack/grpcgo"
	_ "github.com/wirebench/wirebench/stack/instrument"
	_ "github.com/wirebench/wirebench/stack/jvm"
	_ "github.com/wirebench/wirebench/stack/node"
	_ "github.com/wirebench/wirebench/stack/python"
	_ "github.com/wirebench/wirebench/stack/rust"
	_ "github.com/wirebench/wirebench/stack/thriftgo"
)
