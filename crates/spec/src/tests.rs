use super::*;

#[test]
fn smoke_parses_embedded_spec_and_cases() {
    let all = clauses().unwrap();
    assert!(all.len() >= 20);
    assert!(all.iter().any(|c| c.class == Class::Impl));
    assert!(case_files().len() >= 60);
}

#[test]
fn example_syntax() {
    let text = "r[a.b]\nclass: impl\n```connectz expect=8 no-eol\n1\\r\\x41\n```\n```connectz expect=3 class=defined\n7 6 4\n```\n";
    let c = parse("t.md", text).unwrap();
    assert_eq!(c[0].class, Class::Impl);
    match &c[0].examples[..] {
        [
            Example::Game {
                bytes,
                class: Class::Impl,
                ..
            },
            Example::Game {
                class: Class::Defined,
                expect: Code::Incomplete,
                ..
            },
        ] => assert_eq!(bytes, b"1\rA"),
        other => panic!("{other:?}"),
    }
    assert!(parse("t.md", "```connectz expect=3\n1\n```\n").is_err());
}

#[test]
fn a_clause_keeps_its_prose_without_blocks_up_to_the_next_heading() {
    let text = "# T\nr[a.b]\nclass: impl\nFirst line.\n\n```connectz expect=3\n7 6 4\n```\nAfter.\nr[a.c]\nOwn.\n## Next\nNot a clause's.\n";
    let c = parse("t.md", text).unwrap();
    assert_eq!(c[0].text, "First line.\n\nAfter.\n");
    assert_eq!(c[1].text, "Own.\n");
    let all = clauses().unwrap();
    let winnable = all.iter().find(|c| c.id == "rule.winnable").unwrap();
    assert!(winnable.text.contains("can"), "{}", winnable.text);
    assert!(!winnable.text.contains("```"));
}
