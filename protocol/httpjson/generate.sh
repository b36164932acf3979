#!/usr/bin/env bash
# Regenerates protocol/httpjson/stdjson_easyjson.go, the easyjson marshalers of the
# http-json bodies (the types marked easyjson:json in stdjson.go), with the easyjson
# generator go.mod pins as a tool (`go tool easyjson`, the version of
# github.com/mailru/easyjson in go.mod). -no_std_marshalers: no MarshalJSON or
# UnmarshalJSON, so encoding/json (the production stack) never calls the generated
# code. Run from anywhere (make generate); needs only Go.
set -euo pipefail
cd "$(dirname "$0")"
go tool easyjson -no_std_marshalers stdjson.go
