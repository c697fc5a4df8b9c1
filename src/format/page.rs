//! The shell of a self-contained page (nothing fetched): a title, a style sheet, a few lines
//! before the app, and a script that is given its data as one JSON constant. The page is also
//! well-formed XML, so that the tests can parse it: inside CDATA the script may use `<` and
//! `&`, and HTML parsers see the CDATA markers inside comments.

/// What a page holds (the title already escaped for HTML; `intro` and `noscript` are HTML).
pub(crate) struct Page<'a> {
    pub title: &'a str,
    pub style: &'a str,
    /// HTML between the heading and the app.
    pub intro: &'a str,
    /// What the page says without JavaScript.
    pub noscript: &'a str,
    /// The name of the script's data constant, and its JSON.
    pub data_name: &'a str,
    pub data: &'a str,
    pub script: &'a str,
}

impl Page<'_> {
    /// The whole page: a single `format!`, so that no part is searched for another's marks.
    pub fn render(&self) -> String {
        let Page {
            title,
            style,
            intro,
            noscript,
            data_name,
            data,
            script,
        } = self;
        format!(
            r##"<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8"/>
<meta name="viewport" content="width=device-width, initial-scale=1"/>
<title>{title}</title>
<style>
{style}
</style>
</head>
<body>
<main>
<h1>{title}</h1>
{intro}<noscript><p>{noscript}</p></noscript>
<div id="app"></div>
</main>
<script>
//<![CDATA[
const {data_name} = {data};
{script}
//]]>
</script>
</body>
</html>
"##
        )
    }
}
