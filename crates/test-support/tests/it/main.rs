//! Tidy checks over the whole workspace: the architecture invariants of ARCHITECTURE.md,
//! read from every `Cargo.toml`, and the rule that every Rust file opens with `//!`.

use std::{
    collections::BTreeMap,
    path::{Path, PathBuf},
};

/// A package's name and its `[dependencies]` and `[dev-dependencies]` names.
#[derive(Debug)]
struct Package {
    name: String,
    dir: PathBuf,
    deps: Vec<String>,
    dev_deps: Vec<String>,
}

/// Reads the package table and dependency names from a manifest, without a TOML parser:
/// our manifests keep one dependency per line.
fn package(manifest: &Path) -> Package {
    let text = std::fs::read_to_string(manifest).unwrap();
    let (mut name, mut section) = (String::new(), String::new());
    let (mut deps, mut dev_deps) = (Vec::new(), Vec::new());
    for line in text.lines().map(str::trim).filter(|l| !l.is_empty() && !l.starts_with('#')) {
        if line.starts_with('[') {
            section = line.trim_matches(['[', ']']).to_owned();
            continue;
        }
        let key = line.split(['=', '.']).next().unwrap().trim().to_owned();
        match section.as_str() {
            "package" if key == "name" => name = line.split('"').nth(1).unwrap().to_owned(),
            "dependencies" => deps.push(key),
            "dev-dependencies" => dev_deps.push(key),
            _ => {}
        }
    }
    Package { name, dir: manifest.parent().unwrap().to_path_buf(), deps, dev_deps }
}

fn packages() -> BTreeMap<String, Package> {
    let root = test_support::workspace_root();
    let mut manifests = vec![root.join("benches/Cargo.toml")];
    for group in ["crates", "bins"] {
        for entry in std::fs::read_dir(root.join(group)).unwrap() {
            let manifest = entry.unwrap().path().join("Cargo.toml");
            if manifest.exists() {
                manifests.push(manifest);
            }
        }
    }
    manifests.iter().map(|m| package(m)).map(|p| (p.name.clone(), p)).collect()
}

fn is_bin(package: &Package) -> bool {
    package.dir.parent().is_some_and(|p| p.ends_with("bins"))
}

#[test]
fn architecture_invariants_hold() {
    let packages = packages();
    let names: Vec<&str> = packages.keys().map(String::as_str).collect();
    for required in [
        "pricing",
        "datasets",
        "jsonrpc",
        "serve",
        "feeds",
        "tools",
        "dcx",
        "feed-server",
        "tool-server",
    ] {
        assert!(names.contains(&required), "missing package {required}: {names:?}");
    }
    let mut violations = Vec::new();
    let mut forbid =
        |who: &str, dep: &str, why: &str| violations.push(format!("{who} depends on {dep}: {why}"));
    for package in packages.values() {
        let name = package.name.as_str();
        for dep in &package.deps {
            let dep = dep.as_str();
            if packages.get(dep).is_some_and(is_bin) {
                forbid(name, dep, "nothing depends on a binary");
            }
            if dep == "test-support" {
                forbid(name, dep, "test-support is only ever a dev-dependency");
            }
            // test-support's raw HTTP client is the one exception: it is only ever a
            // dev-dependency (checked above), so tokio never reaches a library through it.
            let test_client = name == "test-support" && dep == "tokio";
            if matches!(dep, "tokio" | "hyper" | "hyper-util")
                && !(is_bin(package) || matches!(name, "serve" | "feeds" | "tools") || test_client)
            {
                forbid(
                    name,
                    dep,
                    "tokio and hyper appear only in serve, the services, the bins and the test client",
                );
            }
            if dep == "clap" && !is_bin(package) {
                forbid(name, dep, "clap appears only in the bins");
            }
        }
        let allowed: Option<&[&str]> = match name {
            "pricing" => Some(&[]),
            "jsonrpc" => Some(&["serde", "serde_json", "thiserror"]),
            "serve" => Some(&["bytes", "flate2", "http-body-util", "hyper", "hyper-util", "tokio"]),
            "datasets" => {
                Some(&["pricing", "serde", "serde_json", "chrono", "thiserror", "arc-swap"])
            }
            "methodology" => {
                Some(&["pricing", "datasets", "serde", "serde_json", "chrono", "thiserror"])
            }
            _ => None,
        };
        if let Some(allowed) = allowed {
            for dep in &package.deps {
                if !allowed.contains(&dep.as_str()) {
                    forbid(name, dep, "not in this layer's allowed dependencies (ARCHITECTURE.md)");
                }
            }
        }
        if name == "feeds" && package.deps.iter().any(|d| d == "tools" || d == "jsonrpc") {
            forbid(name, "tools/jsonrpc", "the feed service knows nothing of MCP");
        }
        if name == "tools" && package.deps.iter().any(|d| d == "feeds") {
            forbid(name, "feeds", "the two services are independent");
        }
        let _ = &package.dev_deps;
    }
    assert!(violations.is_empty(), "architecture invariants broken:\n{}", violations.join("\n"));
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy();
        if path.is_dir() {
            if !name.starts_with("target") && !name.starts_with('.') && name != "node_modules" {
                rust_files(&path, out);
            }
        } else if name.ends_with(".rs") {
            out.push(path);
        }
    }
}

#[test]
fn every_rust_file_opens_with_a_module_doc() {
    let root = test_support::workspace_root();
    let mut files = Vec::new();
    for dir in ["crates", "bins", "benches"] {
        rust_files(&root.join(dir), &mut files);
    }
    assert!(files.len() > 20);
    let missing: Vec<String> = files
        .iter()
        .filter(|f| !std::fs::read_to_string(f).unwrap().starts_with("//!"))
        .map(|f| f.strip_prefix(&root).unwrap().display().to_string())
        .collect();
    assert!(missing.is_empty(), "files without a //! first line: {missing:?}");
}

#[test]
fn binaries_stay_thin() {
    let root = test_support::workspace_root();
    for entry in std::fs::read_dir(root.join("bins")).unwrap() {
        let main = entry.unwrap().path().join("src/main.rs");
        if let Ok(text) = std::fs::read_to_string(&main) {
            let lines = text.lines().count();
            assert!(
                lines <= 120,
                "{} has {lines} lines; move logic into a library crate",
                main.display()
            );
        }
    }
}
