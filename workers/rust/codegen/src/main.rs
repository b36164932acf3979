//! Regenerates workers/rust/worker/src/gen from the repository's schemas: the control
//! API (control/controlpb/control.proto), the contract's grpc-proto schema
//! (contract/schema/wirebench.proto), with the contract's file descriptor set for
//! server reflection, and the contract's Cap'n Proto schema
//! (contract/schema/wirebench.capnp, with capnpc; the generated module lives at
//! crate::generated::wirebench_capnp). The output is committed, so building the worker
//! needs neither protoc nor capnp;
//! `make rust-generate` runs this, and `make check-generate` (scripts/check-generate.sh)
//! fails when the committed code differs from what this writes.

use std::path::PathBuf;
use std::process::ExitCode;

fn main() -> ExitCode {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../..");
    let out = root.join("workers/rust/worker/src/gen");
    let control = root.join("control/controlpb");
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
        })
        .map_err(|e| e.to_string())
        .and_then(|_| {
            capnpc::CompilerCommand::new()
                .src_prefix(&schema)
                .file(schema.join("wirebench.capnp"))
                .output_path(&out)
                .default_parent_module(vec!["generated".into()])
                .run()
                .map_err(|e| format!("capnp compile (needs the capnp tool, Debian's capnproto): {e}"))
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
