//! `cargo run --bin datafusion-tensor-docs`: writes the function reference
//! (`docs/src/functions/*.md`) from the registry, as the tests expect it.

use std::path::Path;
use std::process::ExitCode;

fn main() -> ExitCode {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/src");
    for page in datafusion_tensor::reference::pages() {
        let path = root.join(&page.path);
        let written = path
            .parent()
            .map_or(Ok(()), std::fs::create_dir_all)
            .and_then(|()| std::fs::write(&path, &page.text));
        if let Err(error) = written {
            eprintln!("{}: {error}", path.display());
            return ExitCode::FAILURE;
        }
        println!("wrote {}", path.display());
    }
    ExitCode::SUCCESS
}
