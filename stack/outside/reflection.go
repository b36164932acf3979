package outside

import (
	"context"
	"fmt"

	"google.golang.org/grpc"
	rpb "google.golang.org/grpc/reflection/grpc_reflection_v1"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protodesc"
	"google.golang.org/protobuf/reflect/protoregistry"
	"google.golang.org/protobuf/types/descriptorpb"
)

// maxReflectedFiles bounds the files one schema may take from a reflection service,
// so a server that keeps naming new imports cannot keep the client asking.
const maxReflectedFiles = 1000

// reflectFiles asks the server's reflection service (grpc.reflection.v1) for the file
// that defines service and every file it imports, and links them.
func reflectFiles(ctx context.Context, conn grpc.ClientConnInterface, service string) (*protoregistry.Files, error) {
	stream, err := rpb.NewServerReflectionClient(conn).ServerReflectionInfo(ctx)
	if err != nil {
		return nil, fmt.Errorf("server reflection: %w", err)
	}
	defer stream.CloseSend()
	ask := func(req *rpb.ServerReflectionRequest) ([][]byte, error) {
		if err := stream.Send(req); err != nil {
			return nil, fmt.Errorf("server reflection: %w (give --proto or --protoset if the server has no reflection service)", err)
		}
		res, err := stream.Recv()
		if err != nil {
			return nil, fmt.Errorf("server reflection: %w (give --proto or --protoset if the server has no reflection service)", err)
		}
		if e := res.GetErrorResponse(); e != nil {
			return nil, fmt.Errorf("server reflection: %s", e.GetErrorMessage())
		}
		fd := res.GetFileDescriptorResponse()
		if fd == nil {
			return nil, fmt.Errorf("server reflection answered with no file descriptor")
		}
		return fd.GetFileDescriptorProto(), nil
	}
	got := map[string]*descriptorpb.FileDescriptorProto{}
	var order []string
	keep := func(raw [][]byte) error {
		for _, b := range raw {
			f := new(descriptorpb.FileDescriptorProto)
			if err := proto.Unmarshal(b, f); err != nil {
				return fmt.Errorf("server reflection: a file descriptor does not decode: %w", err)
			}
			if _, ok := got[f.GetName()]; !ok {
				got[f.GetName()] = f
				order = append(order, f.GetName())
			}
		}
		return nil
	}
	raw, err := ask(&rpb.ServerReflectionRequest{MessageRequest: &rpb.ServerReflectionRequest_FileContainingSymbol{FileContainingSymbol: service}})
	if err != nil {
		return nil, err
	}
	if err := keep(raw); err != nil {
		return nil, err
	}
	// A server sends the file and, usually, its imports; ask for any it left out.
	for i := 0; i < len(order); i++ {
		if len(order) > maxReflectedFiles {
			return nil, fmt.Errorf("server reflection: more than %d files", maxReflectedFiles)
		}
		for _, dep := range got[order[i]].GetDependency() {
			if _, ok := got[dep]; ok {
				continue
			}
			raw, err := ask(&rpb.ServerReflectionRequest{MessageRequest: &rpb.ServerReflectionRequest_FileByFilename{FileByFilename: dep}})
			if err != nil {
				return nil, err
			}
			if err := keep(raw); err != nil {
				return nil, err
			}
		}
	}
	set := &descriptorpb.FileDescriptorSet{}
	for _, n := range order {
		set.File = append(set.File, got[n])
	}
	files, err := protodesc.NewFiles(set)
	if err != nil {
		return nil, fmt.Errorf("server reflection: %w", err)
	}
	return files, nil
}
