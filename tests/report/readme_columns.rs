//! The README documents the per-game table from its single definition in code.
//!
//! Run with `BLESS=1` to rewrite the README's table after changing a column.
use floodgate_scan::game::row::columns_markdown;

const BEGIN: &str = "<!-- columns:begin -->\n";
const END: &str = "<!-- columns:end -->";

#[test]
fn readme_column_table_matches_code() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/README.md");
    let readme = std::fs::read_to_string(path).expect("README.md");
    let start = readme
        .find(BEGIN)
        .expect("README has the columns:begin marker")
        + BEGIN.len();
    let end = readme.find(END).expect("README has the columns:end marker");
    let table = columns_markdown();
    if std::env::var_os("BLESS").is_some() {
        let new = format!("{}{}{}", &readme[..start], table, &readme[end..]);
        std::fs::write(path, new).expect("write README.md");
        return;
    }
    assert_eq!(
        &readme[start..end],
        table,
        "README column table is stale: run `BLESS=1 cargo test --test report readme_columns::`"
    );
}
