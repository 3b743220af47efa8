//! Tidy checks over the whole workspace: the architecture invariants of ARCHITECTURE.md,
//! read from every `Cargo.toml`, the release and fuzz-crate rules, and (module `tidy`) the
//! one set of file rules: a `//!` first line and a length limit.

mod tidy;

use std::{
    collections::BTreeMap,
    path::{Path, PathBuf},
};

/// A package: the name other manifests depend on it by, its `[package]` table and its
/// `[dependencies]` and `[dev-dependencies]` names.
#[derive(Debug)]
struct Package {
    /// The library name when `[lib]` sets one (a published package keeps its import name,
    /// e.g. `pricing` for `dcx-pricing`), else the package name.
    name: String,
    dir: PathBuf,
    /// `[package]` keys with their text: a quoted value, or `workspace` when inherited.
    fields: BTreeMap<String, String>,
    deps: Vec<String>,
    dev_deps: Vec<String>,
}

/// Reads the package table and dependency names from a manifest, without a TOML parser:
/// our manifests keep one dependency per line.
fn package(manifest: &Path) -> Package {
    let text = std::fs::read_to_string(manifest).unwrap();
    let (mut lib_name, mut section) = (None, String::new());
    let (mut fields, mut deps, mut dev_deps) = (BTreeMap::new(), Vec::new(), Vec::new());
    for line in text.lines().map(str::trim).filter(|l| !l.is_empty() && !l.starts_with('#')) {
        if line.starts_with('[') {
            section = line.trim_matches(['[', ']']).to_owned();
            continue;
        }
        let key = line.split(['=', '.']).next().unwrap().trim().to_owned();
        let value = if line.starts_with(&format!("{key}.workspace")) {
            "workspace".to_owned()
        } else {
            line.split('"').nth(1).unwrap_or(line).to_owned()
        };
        match section.as_str() {
            "package" => {
                fields.insert(key, value);
            }
            "lib" if key == "name" => lib_name = Some(value),
            "dependencies" => deps.push(key),
            "dev-dependencies" => dev_deps.push(key),
            _ => {}
        }
    }
    let name = lib_name.unwrap_or_else(|| fields["name"].clone());
    Package { name, dir: manifest.parent().unwrap().to_path_buf(), fields, deps, dev_deps }
}

/// Every package: the workspace's members and the fuzz crate (`fuzz/`, a workspace of its
/// own, held to the same dependency rules).
fn packages() -> BTreeMap<String, Package> {
    let root = test_support::workspace_root();
    let mut manifests = vec![root.join("benches/Cargo.toml"), root.join("fuzz/Cargo.toml")];
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

/// A binary: a package under `bins/` with a `main.rs`.
fn is_bin(package: &Package) -> bool {
    is_cli(package) && package.dir.join("src/main.rs").exists()
}

/// The fuzz crate: a harness like `test-support`, outside the main workspace.
fn is_fuzz(package: &Package) -> bool {
    package.dir.ends_with("fuzz")
}

/// The command-line layer: the binaries and how they start (`bins/launcher`, `bins/allocator`).
fn is_cli(package: &Package) -> bool {
    package.dir.parent().is_some_and(|p| p.ends_with("bins"))
}

#[test]
fn architecture_invariants_hold() {
    let packages = packages();
    let names: Vec<&str> = packages.keys().map(String::as_str).collect();
    for required in
        "pricing datasets jsonrpc serve feeds tools dcx feed-server tool-server".split(' ')
    {
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
            if packages.get(dep).is_some_and(is_fuzz) {
                forbid(name, dep, "nothing depends on the fuzz crate");
            }
            // test-support's raw HTTP client is the one exception: it is only ever a
            // dev-dependency (checked above), so tokio never reaches a library through it.
            let test_client = name == "test-support" && dep == "tokio";
            // The fuzz targets build requests as the HTTP layer hands them to a handler.
            let fuzz_requests = is_fuzz(package) && dep == "hyper";
            if matches!(dep, "tokio" | "hyper" | "hyper-util")
                && !(is_cli(package)
                    || matches!(name, "serve" | "feeds" | "tools")
                    || test_client
                    || fuzz_requests)
            {
                forbid(
                    name,
                    dep,
                    "tokio and hyper appear only in serve, the services, the bins and the test client",
                );
            }
            if dep == "clap" && !is_cli(package) {
                forbid(name, dep, "clap appears only in the bins");
            }
            if dep.starts_with("tracing") && name != "telemetry" {
                forbid(name, dep, "tracing appears only in telemetry, which only the bins use");
            }
            if dep == "telemetry" && !is_cli(package) {
                forbid(name, dep, "libraries report typed events; only the bins write logs");
            }
        }
        // Each layer's allowed dependencies (ARCHITECTURE.md), separated by spaces.
        let allowed = match name {
            "pricing" | "words" => Some(""),
            "jsonrpc" => Some("base64 serde serde_json thiserror words"),
            "serve" => Some("bytes flate2 http-body-util httpdate hyper hyper-util tokio words"),
            "datasets" => Some("pricing serde serde_json chrono thiserror arc-swap"),
            "telemetry" => Some(
                "datasets prometheus-client serve tools tracing tracing-appender \
                 tracing-subscriber words",
            ),
            "methodology" => Some("pricing datasets serde serde_json chrono thiserror csv-core"),
            _ => None,
        };
        if let Some(allowed) = allowed {
            for dep in &package.deps {
                if !allowed.split_whitespace().any(|allowed| allowed == dep) {
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
    }
    assert!(violations.is_empty(), "architecture invariants broken:\n{}", violations.join("\n"));
}

/// The published libraries (docs/releasing.md), by import name, with their package names.
const PUBLISHED: [(&str, &str); 2] = [("pricing", "dcx-pricing"), ("datasets", "dcx-datasets")];

#[test]
fn only_the_two_libraries_are_published_and_they_carry_release_metadata() {
    let root = test_support::workspace_root();
    let workspace = std::fs::read_to_string(root.join("Cargo.toml")).unwrap();
    let mut problems = Vec::new();
    for package in packages().values().filter(|package| !is_fuzz(package)) {
        let (name, field) = (&package.name, |key: &str| package.fields.get(key).cloned());
        let Some(&(_, published_as)) = PUBLISHED.iter().find(|(lib, _)| lib == name) else {
            // Internal crates: version 0.0.0 and the workspace's `publish = false`; the
            // binaries carry the release's version (`[workspace.package]`), which
            // `--version` and `/health` show.
            if is_bin(package) {
                if field("version").as_deref() != Some("workspace") {
                    problems.push(format!("{name}: a binary takes `version.workspace = true`"));
                }
            } else if field("version").as_deref() != Some("0.0.0") {
                problems.push(format!("{name}: internal crates are version 0.0.0"));
            }
            if field("publish").as_deref() != Some("workspace") {
                problems.push(format!("{name}: internal crates inherit `publish = false`"));
            }
            continue;
        };
        let version = field("version").unwrap_or_default();
        if field("name").as_deref() != Some(published_as) {
            problems.push(format!("{name}: is published as {published_as}"));
        }
        if version == "0.0.0" || version.split('.').count() != 3 {
            problems
                .push(format!("{name}: a published library has a real version, not {version:?}"));
        }
        if field("publish").is_some() {
            problems.push(format!("{name}: a published library must not set `publish`"));
        }
        let keys =
            "description keywords categories readme documentation repository license include";
        for key in keys.split(' ') {
            if field(key).is_none() {
                problems.push(format!("{name}: publish metadata misses `{key}`"));
            }
        }
        let dependency = format!(
            "{name} = {{ package = \"{published_as}\", path = \"crates/{name}\", version = \"{version}\" }}"
        );
        if !workspace.lines().any(|line| line == dependency) {
            problems.push(format!("{name}: the workspace dependency must read `{dependency}`"));
        }
        let changelog =
            std::fs::read_to_string(package.dir.join("CHANGELOG.md")).unwrap_or_default();
        if !changelog.lines().any(|line| line.starts_with(&format!("## {version} "))) {
            problems.push(format!("{name}: CHANGELOG.md has no `## {version} ` section"));
        }
        if !package.dir.join("README.md").exists() {
            problems.push(format!("{name}: has no README.md"));
        }
    }
    assert!(problems.is_empty(), "release rules broken:\n{}", problems.join("\n"));
}

/// Every `.rs` file under `dir`, build output and fuzz corpora left out.
fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy();
        if path.is_dir() {
            // Build output, and the fuzz corpora and crash inputs (thousands of files).
            let generated = name.starts_with("target")
                || matches!(name.as_ref(), "node_modules" | "corpus" | "artifacts");
            if !generated && !name.starts_with('.') {
                rust_files(&path, out);
            }
        } else if name.ends_with(".rs") {
            out.push(path);
        }
    }
}

/// Every dependency a crate's `Cargo.toml` lists (normal or dev) is named somewhere in
/// that crate's Rust files, as `name::` or `use name` (dashes as underscores): a
/// dependency left behind by a change fails here instead of lingering in every build.
#[test]
fn every_dependency_is_used() {
    let (packages, mut unused) = (packages(), Vec::new());
    for package in packages.values() {
        let mut files = Vec::new();
        rust_files(&package.dir, &mut files);
        let text: String = files.iter().map(|f| std::fs::read_to_string(f).unwrap()).collect();
        for dep in package.deps.iter().chain(&package.dev_deps) {
            let name = dep.replace('-', "_");
            if !text.contains(&format!("{name}::")) && !text.contains(&format!("use {name}")) {
                unused.push(format!("{}: {dep}", package.name));
            }
        }
    }
    assert!(unused.is_empty(), "dependencies no source file names (remove them): {unused:?}");
}

/// Every citation of `docs/decisions.md` in code and docs (`docs/decisions.md 2.1.3`, or
/// with the path in backquotes) names a section or rule that the page has, so that a
/// reader of a clone finds the rule a comment relies on.
#[test]
fn every_cited_decision_exists() {
    let root = test_support::workspace_root();
    let decisions = std::fs::read_to_string(root.join("docs/decisions.md")).unwrap();
    let exists = |number: &str| {
        decisions.contains(&format!("- {number} "))
            || decisions.lines().any(|l| l.starts_with('#') && l.contains(&format!(" {number} ")))
    };
    let mut files = Vec::new();
    for dir in ["crates", "bins", "benches", "fuzz"] {
        rust_files(&root.join(dir), &mut files);
    }
    for entry in std::fs::read_dir(root.join("docs")).unwrap() {
        files.push(entry.unwrap().path());
    }
    files.extend([root.join("README.md"), root.join("ARCHITECTURE.md")]);
    let (mut cited, mut missing) = (0, Vec::new());
    for file in &files {
        let text = std::fs::read_to_string(file).unwrap_or_default();
        for (at, _) in text.match_indices("decisions.md") {
            let rest = text[at + "decisions.md".len()..].trim_start_matches('`').trim_start();
            let number: String =
                rest.chars().take_while(|c| c.is_ascii_digit() || *c == '.').collect();
            let number = number.trim_end_matches('.');
            if number.is_empty() {
                continue;
            }
            cited += 1;
            if !exists(number) {
                missing.push(format!("{}: {number}", file.strip_prefix(&root).unwrap().display()));
            }
        }
    }
    assert!(cited > 10, "only {cited} citations found");
    assert!(
        missing.is_empty(),
        "cited decisions that docs/decisions.md does not have: {missing:?}"
    );
}

/// `unsafe` lives in one crate (ARCHITECTURE.md): every other member of the workspace
/// takes the workspace's lints, which forbid it, and `bins/allocator`, which denies it,
/// allows it only on the one module of its calls into mimalloc's C API.
#[test]
fn unsafe_code_lives_only_in_the_allocator() {
    let root = test_support::workspace_root();
    let mut problems = Vec::new();
    for package in packages().values().filter(|package| !is_fuzz(package)) {
        let manifest = std::fs::read_to_string(package.dir.join("Cargo.toml")).unwrap();
        let inherits = manifest.contains("\n[lints]\nworkspace = true\n");
        if package.dir == root.join("bins/allocator") {
            if !manifest.contains("\nunsafe_code = \"deny\"\n") {
                problems.push("bins/allocator: unsafe_code = \"deny\"".to_owned());
            }
            let mut files = Vec::new();
            rust_files(&package.dir, &mut files);
            let text: String = files.iter().map(|f| std::fs::read_to_string(f).unwrap()).collect();
            let allowed = text.matches("#[allow(unsafe_code)]").count();
            // The calls into mimalloc's C API, allowed on their own module.
            if allowed != 1 {
                problems.push(format!("bins/allocator: {allowed} `allow(unsafe_code)`, not 1"));
            }
        } else if !inherits {
            problems.push(format!("{}: [lints] workspace = true", package.name));
        }
    }
    let workspace = std::fs::read_to_string(root.join("Cargo.toml")).unwrap();
    if !workspace.contains("\nunsafe_code = \"forbid\"\n") {
        problems.push("the workspace lints forbid unsafe_code".to_owned());
    }
    assert!(problems.is_empty(), "missing: {problems:?}");
}

/// The fuzz crate stands apart (docs/reliability.md, "Fuzzing"): its own workspace, which
/// the main one excludes, with its own Cargo.lock and git-ignored build, corpus and
/// crash folders; never published; every external dependency at the main workspace's
/// version; every target a `[[bin]]` with its file, and every file a target.
#[test]
fn the_fuzz_crate_stands_apart() {
    let root = test_support::workspace_root();
    let read = |path: &str| std::fs::read_to_string(root.join(path)).unwrap();
    let (workspace, manifest) = (read("Cargo.toml"), read("fuzz/Cargo.toml"));
    let mut problems = Vec::new();
    let mut need = |ok: bool, what: &str| {
        if !ok {
            problems.push(what.to_owned());
        }
    };
    need(workspace.contains(r#"exclude = ["fuzz"]"#), "the workspace excludes fuzz");
    need(manifest.lines().any(|l| l == "[workspace]"), "fuzz/Cargo.toml is its own workspace");
    need(manifest.contains("\npublish = false\n"), "the fuzz crate is never published");
    need(manifest.contains("\nversion = \"0.0.0\"\n"), "the fuzz crate is version 0.0.0");
    need(root.join("fuzz/Cargo.lock").exists(), "fuzz/Cargo.lock is committed");
    let ignored: Vec<String> = read("fuzz/.gitignore").lines().map(str::to_owned).collect();
    for dir in ["target", "corpus", "artifacts"] {
        need(ignored.iter().any(|l| l == dir), &format!("fuzz/.gitignore ignores {dir}"));
    }
    // External versions: `name = "v"` or `name = { version = "v", ... }`, one per line.
    let version_of = |text: &str, dep: &str| {
        let line = text.lines().find(|l| l.starts_with(&format!("{dep} = ")))?;
        let rest = line.split_once("version = ").map_or(line, |(_, rest)| rest);
        let rest = rest.strip_prefix(&format!("{dep} = ")).unwrap_or(rest);
        rest.split('"').nth(1).map(str::to_owned)
    };
    let fuzz = packages().into_values().find(is_fuzz).unwrap();
    for dep in &fuzz.deps {
        let line = manifest.lines().find(|l| l.starts_with(&format!("{dep} = "))).unwrap();
        let (ours, main) = (version_of(&manifest, dep), version_of(&workspace, dep));
        let same = line.contains("path = ") || main.is_none() || ours == main;
        need(same, &format!("fuzz: {dep} {ours:?}, the workspace has {main:?}"));
    }
    let mut targets: Vec<String> = std::fs::read_dir(root.join("fuzz/fuzz_targets"))
        .unwrap()
        .map(|entry| entry.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    targets.sort();
    let mut bins: Vec<String> = manifest
        .lines()
        .filter_map(|line| line.strip_prefix("path = \"fuzz_targets/"))
        .map(|rest| rest.trim_end_matches('"').to_owned())
        .collect();
    bins.sort();
    need(targets.len() >= 4, "at least four fuzz targets");
    need(targets == bins, &format!("fuzz targets {targets:?} are the [[bin]]s {bins:?}"));
    assert!(problems.is_empty(), "fuzz crate rules broken:\n{}", problems.join("\n"));
}
