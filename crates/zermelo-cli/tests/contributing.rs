//! The contributor's pages of the guide (adding a game, adding a command) name real files:
//! every path they quote exists in the tree, with `FAMILY` standing for a game's folder.

use std::path::Path;

/// The repository's root.
fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .unwrap()
        .parent()
        .unwrap()
}

/// The paths quoted in `page` (between backticks, holding a `/`, not a URL or a spec).
fn quoted_paths(page: &str) -> Vec<String> {
    page.split('`')
        .skip(1)
        .step_by(2)
        .filter(|q| q.contains('/') && !q.contains(' ') && !q.contains(':') && !q.starts_with("../"))
        .map(str::to_string)
        .collect()
}

#[test]
fn contributor_pages_name_files_that_exist() {
    for page in ["docs/guide/adding-a-game.md", "docs/guide/adding-a-command.md"] {
        let text = std::fs::read_to_string(root().join(page)).unwrap();
        let paths = quoted_paths(&text);
        assert!(paths.len() >= 10, "{page} names only {paths:?}");
        for path in paths {
            let real = path.replace("FAMILY", "connect4");
            assert!(
                root().join(&real).exists(),
                "{page} names `{path}`, and {real} does not exist"
            );
        }
    }
}
