//! A table missing from the data folder is looked for once in a command or a server's
//! request (the options it runs under, and their clones), not at every position asked.

use zermelo::catalog;
use zermelo::session::{Absent, Options};

#[test]
fn a_missing_table_is_looked_for_once_under_the_same_options() {
    let data = std::env::temp_dir().join(format!("zermelo-tables-once-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&data);
    std::fs::create_dir_all(&data).unwrap();
    let spec = "domineering:rows=3,cols=3";
    let session = catalog::open(spec).unwrap();
    let opts = Options {
        data_dir: data.clone(),
        save: false,
        ..Options::default()
    };
    let before = session.position(&[], &opts).unwrap();
    // A file that is no table appears where the table would be.
    let path = data.join("domineering-rows-3-cols-3.zdb");
    std::fs::write(&path, b"not a table").unwrap();
    // The same command does not look again, nor do its options' clones...
    assert_eq!(session.position(&[], &opts).unwrap().verdict, before.verdict);
    assert!(session.position(&[], &opts.clone()).is_ok());
    // ...a new one (or request) does, and refuses the file.
    let fresh = Options {
        absent: Absent::default(),
        ..opts.clone()
    };
    let refused = session.position(&[], &fresh).unwrap_err().to_string();
    assert!(refused.contains("domineering-rows-3-cols-3.zdb"), "{refused}");
    let _ = std::fs::remove_dir_all(&data);
}
