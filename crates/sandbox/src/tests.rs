use super::*;
use std::os::unix::fs::PermissionsExt;

#[test]
fn a_scratch_folder_is_new_its_own_and_of_its_mode() {
    let within = std::env::temp_dir().join(format!("cz-own-{}", std::process::id()));
    let _ = fs::remove_dir_all(&within);
    fs::create_dir(&within).unwrap();
    let made: Vec<PathBuf> = (0..20)
        .map(|_| own_folder(&within, 0o711).unwrap())
        .collect();
    let mut names: Vec<_> = made.iter().map(|p| p.file_name().unwrap()).collect();
    names.sort();
    names.dedup();
    assert_eq!(names.len(), 20, "a name came twice: {made:?}");
    for path in &made {
        let meta = fs::symlink_metadata(path).unwrap();
        assert!(meta.is_dir());
        assert_eq!(
            meta.permissions().mode() & 0o7777,
            0o711,
            "{}",
            path.display()
        );
        let name = path.file_name().unwrap().to_str().unwrap();
        let word = name
            .strip_prefix(&format!("cz-check-{}-", std::process::id()))
            .unwrap();
        assert_eq!(word.len(), 16, "{name}");
    }
    // A folder that is not there is an error, not a folder made on the way.
    let gone = within.join("not-there");
    assert!(own_folder(&gone, 0o700).is_err());
    assert!(!gone.exists());
    fs::remove_dir_all(&within).unwrap();
}
