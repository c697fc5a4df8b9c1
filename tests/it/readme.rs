//! The README's examples are real: every `console` block command whose output is shown in
//! full (no `...`, no timings) is run, and what it prints must be exactly what is shown.

use std::path::Path;

#[test]
fn readme_examples_print_what_they_show() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let readme = std::fs::read_to_string(root.join("README.md")).unwrap();
    let bin = assert_cmd::cargo::cargo_bin("nqueens");
    let path = format!(
        "{}:{}",
        bin.parent().unwrap().display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let mut checked = 0;
    let mut in_console = false;
    let mut examples: Vec<(String, Vec<String>)> = Vec::new();
    for line in readme.lines() {
        match line {
            "```console" => in_console = true,
            "```" => in_console = false,
            _ if in_console => match line.strip_prefix("$ ") {
                Some(cmd) => examples.push((cmd.to_string(), Vec::new())),
                None => examples.last_mut().unwrap().1.push(line.to_string()),
            },
            _ => {}
        }
    }
    for (cmd, shown) in examples {
        let elided = shown
            .iter()
            .any(|l| l.trim() == "..." || l.contains("hh:mm"));
        if elided || cmd.contains('#') {
            continue;
        }
        let out = std::process::Command::new("bash")
            // What a terminal shows: both streams of every command of a pipeline.
            .args(["-c", &format!("{{ {cmd} ; }} 2>&1")])
            .current_dir(root)
            .env("PATH", &path)
            .output()
            .unwrap();
        let printed = String::from_utf8(out.stdout).unwrap();
        let printed: Vec<&str> = printed.lines().collect();
        assert_eq!(printed, shown, "`{cmd}`");
        checked += 1;
    }
    assert!(checked >= 5, "only {checked} README examples checked");
}
