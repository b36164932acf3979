//! Regenerates workers/rust/worker/src/gen from the repository's two .proto files: the
//! control API (cluster/controlpb/control.proto) and the contract's grpc-proto schema
//! (contract/schema/wirebench.proto), with the contract's file descriptor set for
//! server reflection. The output is committed, so building the worker needs no protoc;
//! `make rust-generate` runs this, and `make rust-check-generated` fails when the
//! committed code differs from what this writes.

use std::path::PathBuf;
use std::process::ExitCode;

fn main() -> ExitCode {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../..");
    let out = root.join("workers/rust/worker/src/gen");
    let control = root.join("cluster/controlpb");
    let schema = root.join("contract/schema");
    let result = tonic_prost_build::configure()
        .out_dir(&out)
        .build_client(true)
        .build_server(true)
        .compile_protos(&[control.join("control.proto")], &[control.clone()])
        .and_then(|_| {
            tonic_prost_build::configure()
                .out_dir(&out)
                .file_descriptor_set_path(out.join("wirebench_descriptor.bin"))
                .compile_protos(&[schema.join("wirebench.proto")], &[schema.clone()])
        });
    match result {
        Ok(()) => {
            println!("wrote {}", out.display());
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("wirebench-codegen: {e}");
            ExitCode::FAILURE
        }
    }
}
