//! Regenerates workers/rust/worker/src/gen from the repository's schemas: the control
//! API (control/controlpb/control.proto), the contract's grpc-proto schema
//! (contract/schema/wirebench.proto), with the contract's file descriptor set for
//! server reflection, and the contract's Cap'n Proto schema
//! (contract/schema/wirebench.capnp, with capnpc; the generated module lives at
//! crate::generated::wirebench_capnp). The output is committed, so building the worker
//! needs neither protoc nor capnp;
//! `make rust-generate` runs this, and `make check-generate` (scripts/check-generate.sh)
//! fails when the committed code differs from what this writes.
//!
//! A file whose content would not change is not written: cargo rebuilds from
//! modification times, and tonic-prost-build writes the descriptor set every time (its
//! `.rs` files and capnpc's only when they change), so each `make check-generate`
//! rebuilt the Rust worker and its tests for nothing (42 s and 35 s of a warm `make
//! test`, 2026-11-29).

use std::path::{Path, PathBuf};
use std::process::ExitCode;

fn main() -> ExitCode {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../..");
    let out = root.join("workers/rust/worker/src/gen");
    let control = root.join("control/controlpb");
    let schema = root.join("contract/schema");
    let descriptor = out.join("wirebench_descriptor.bin");
    let fresh =
        std::env::temp_dir().join(format!("wirebench_descriptor.{}.bin", std::process::id()));
    let result = tonic_prost_build::configure()
        .out_dir(&out)
        .build_client(true)
        .build_server(true)
        .compile_protos(&[control.join("control.proto")], &[control.clone()])
        .and_then(|_| {
            tonic_prost_build::configure()
                .out_dir(&out)
                .file_descriptor_set_path(&fresh)
                .compile_protos(&[schema.join("wirebench.proto")], &[schema.clone()])
        })
        .and_then(|_| replace_if_changed(&fresh, &descriptor))
        .map_err(|e| e.to_string())
        .and_then(|_| {
            capnpc::CompilerCommand::new()
                .src_prefix(&schema)
                .file(schema.join("wirebench.capnp"))
                .output_path(&out)
                .default_parent_module(vec!["generated".into()])
                .run()
                .map_err(|e| {
                    format!("capnp compile (needs the capnp tool, Debian's capnproto): {e}")
                })
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

/// Writes fresh's bytes to dst when they differ from dst's (a dst that does not exist
/// differs), leaving an equal dst and its modification time alone; then removes fresh.
fn replace_if_changed(fresh: &Path, dst: &Path) -> std::io::Result<()> {
    let new = std::fs::read(fresh)?;
    if std::fs::read(dst).ok().as_deref() != Some(new.as_slice()) {
        std::fs::write(dst, &new)?;
    }
    std::fs::remove_file(fresh)
}
