//! `nqueens region`: queens with regions (the daily "Queens" game): solve, count, verify,
//! generate, rate and draw. A thin layer over [`nqueens::region`].

use std::io::{self, BufWriter, Read, Write};
use std::sync::atomic::Ordering;

use anyhow::Context;
use rand::RngCore;

use nqueens::region::{
    Board, Difficulty, GenerateError, Generator, Order, Puzzle, Rating, Search, Step, hint, html,
    rate, svg, verify,
};

use super::input::Input;
use super::{bad_input, signals};

/// The most input read: far more than the largest grid (62 x 62) with every cell marked.
const MAX_INPUT: u64 = 64 << 20;

/// How to write boards.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
enum Format {
    /// The text form: one letter per cell, then `q ROW COL` and `x ROW COL` lines; boards
    /// separated by blank lines. Read back by every verb.
    Text,
    /// One JSON object per line (`regions`, `queens`, ...). Read back by every verb.
    Json,
    /// An SVG picture (one board only): tinted regions, their letters, thick borders.
    Svg,
    /// A drawing for the terminal: letters, `#` queens, `.` crosses, borders between regions.
    Board,
    /// A page to play the puzzle in a browser (one board only; one offline file).
    Html,
}

/// When `--format board` paints regions in colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
enum ColorArg {
    /// When standard output is a terminal and `NO_COLOR` is unset or empty.
    Auto,
    /// Always (the letters and borders stay).
    Always,
    /// Never.
    Never,
}

impl ColorArg {
    /// Whether to paint.
    fn wanted(self) -> bool {
        use std::io::IsTerminal;
        match self {
            ColorArg::Always => true,
            ColorArg::Never => false,
            ColorArg::Auto => {
                io::stdout().is_terminal()
                    && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty())
            }
        }
    }
}

/// Which unit the solver fills next.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
enum OrderArg {
    /// The row, column or region with the fewest open cells.
    Fewest,
    /// Rows from top to bottom (the baseline).
    Rows,
}

/// Arguments of `nqueens region`.
#[derive(clap::Args)]
#[command(after_help = "\
A puzzle is an N x N grid split into N connected regions, one letter or digit per cell naming
its region; N queens go one per row, column and region, no two touching (diagonally included).
A game in progress adds `q ROW COL` (queen) and `x ROW COL` (cross) lines after the grid, from
1. A JSON form ({\"regions\": [\"AAB\", ...], \"queens\": [[1, 2]], \"crosses\": [...]}) and
several puzzles in one input (blank lines between them, or JSON Lines) are read too.
See docs/regions.md.")]
pub struct Args {
    #[command(subcommand)]
    verb: Verb,
    /// Paint `--format board` drawings in a colour-blind-safe palette: auto (when standard
    /// output is a terminal and NO_COLOR is unset), always or never.
    #[arg(long, global = true, value_enum, default_value_t = ColorArg::Auto)]
    color: ColorArg,
}

#[derive(clap::Subcommand)]
enum Verb {
    /// Solve each puzzle: its first solution (or all, or up to --limit), keeping its queens
    /// and avoiding its crosses.
    Solve {
        /// The file to read; `-` or nothing for stdin.
        #[arg(default_value = "-", value_parser = Input::parser())]
        file: Input,
        /// Every solution.
        #[arg(long, conflicts_with = "limit")]
        all: bool,
        /// At most this many solutions.
        #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
        limit: Option<u64>,
        /// How to write the solutions.
        #[arg(long, value_enum, default_value_t = Format::Text)]
        format: Format,
        /// Which unit the solver fills next.
        #[arg(long, value_enum, default_value_t = OrderArg::Fewest)]
        order: OrderArg,
    },
    /// Count each puzzle's solutions, one line per puzzle; `--limit 2` decides "is it unique?"
    /// at the cost of finding two.
    Count {
        /// The file to read; `-` or nothing for stdin.
        #[arg(default_value = "-", value_parser = Input::parser())]
        file: Input,
        /// Stop at this many solutions and print `K or more`.
        #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
        limit: Option<u64>,
        /// Which unit the solver fills next.
        #[arg(long, value_enum, default_value_t = OrderArg::Fewest)]
        order: OrderArg,
    },
    /// Check the queens of each board (its `q` lines) against the rules: `ok` or the rule
    /// broken.
    Verify {
        /// The file to read; `-` or nothing for stdin.
        #[arg(default_value = "-", value_parser = Input::parser())]
        file: Input,
    },
    /// Make puzzles with exactly one solution, rated, streamed in order.
    Generate {
        /// Grid size N (5 to 32).
        n: u64,
        /// How many puzzles.
        #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..))]
        count: u64,
        /// Seed: the same seed gives the same puzzles; without it a fresh seed is drawn and
        /// printed on stderr as `seed: S`.
        #[arg(long)]
        seed: Option<u64>,
        /// Only puzzles of this difficulty.
        #[arg(long, value_enum)]
        difficulty: Option<Difficulty>,
        /// How to write the puzzles.
        #[arg(long, value_enum, default_value_t = Format::Text)]
        format: Format,
        /// Threads (all cores by default); the output is the same for any number.
        #[arg(short = 'j', long, value_parser = clap::value_parser!(u64).range(1..=1024))]
        threads: Option<u64>,
    },
    /// Rate each puzzle by how a person solves it: the rules used, and easy, medium, hard or
    /// needs-guessing.
    Rate {
        /// The file to read; `-` or nothing for stdin.
        #[arg(default_value = "-", value_parser = Input::parser())]
        file: Input,
        /// List every step with its reason.
        #[arg(long)]
        steps: bool,
        /// Only the next deduction from the board's marks, with its reason.
        #[arg(long, conflicts_with = "steps")]
        hint: bool,
        /// Write each rating as one JSON object per line.
        #[arg(long)]
        json: bool,
    },
    /// Draw each board (its marks included) in another form.
    Draw {
        /// The file to read; `-` or nothing for stdin.
        #[arg(default_value = "-", value_parser = Input::parser())]
        file: Input,
        /// The form to draw in.
        #[arg(long, value_enum, default_value_t = Format::Svg)]
        format: Format,
    },
}

/// Runs `nqueens region`.
pub fn run(args: Args) -> anyhow::Result<()> {
    let colour = args.color.wanted();
    let mut out = BufWriter::new(io::stdout().lock());
    let result = match args.verb {
        Verb::Solve {
            file,
            all,
            limit,
            format,
            order,
        } => solve(
            &mut out,
            &file,
            limit.or((!all).then_some(1)),
            (format, colour),
            order,
        ),
        Verb::Count { file, limit, order } => count(&mut out, &file, limit, order),
        Verb::Verify { file } => verify_all(&mut out, &file),
        Verb::Generate {
            n,
            count,
            seed,
            difficulty,
            format,
            threads,
        } => generate(
            &mut out,
            n,
            count,
            seed,
            difficulty,
            (format, colour),
            threads,
        ),
        Verb::Rate {
            file,
            steps,
            hint,
            json,
        } => rate_all(&mut out, &file, steps, hint, json),
        Verb::Draw { file, format } => {
            let boards = read(&file)?;
            write_boards(&mut out, &boards, (format, colour))
        }
    };
    // Output that cannot be written is an error, here as in every command (the error of the
    // verb, if any, comes first).
    let flushed = out.flush().context("cannot write the output");
    result.and(flushed)
}

/// Every board of the input; the first bad one is bad input, named by its number.
fn read(file: &Input) -> anyhow::Result<Vec<Board>> {
    let mut text = String::new();
    file.open(1 << 16)?
        .take(MAX_INPUT + 1)
        .read_to_string(&mut text)
        .map_err(|e| bad_input(format!("cannot read {}: {e}", file.name())))?;
    if text.len() as u64 > MAX_INPUT {
        return Err(bad_input(format!(
            "{}: more than {} MiB of puzzles",
            file.name(),
            MAX_INPUT >> 20
        )));
    }
    let boards: Vec<Board> = Board::parse_all(&text)
        .into_iter()
        .enumerate()
        .map(|(i, b)| b.map_err(|e| bad_input(format!("{}: puzzle {}: {e}", file.name(), i + 1))))
        .collect::<anyhow::Result<_>>()?;
    if boards.is_empty() {
        return Err(bad_input(format!("{}: no puzzle", file.name())));
    }
    Ok(boards)
}

fn order(order: OrderArg) -> Order {
    match order {
        OrderArg::Fewest => Order::Fewest,
        OrderArg::Rows => Order::Rows,
    }
}

/// A format, and whether a board drawing is in colour.
type Style = (Format, bool);

/// A board drawn for the terminal, in colour or not.
fn drawn(board: &Board, colour: bool) -> String {
    if colour {
        svg::terminal_in_colour(board)
    } else {
        svg::terminal(board)
    }
}

/// Writes boards in a format; an SVG picture and a page hold one board.
fn write_boards(
    out: &mut impl Write,
    boards: &[Board],
    (format, colour): Style,
) -> anyhow::Result<()> {
    if matches!(format, Format::Svg | Format::Html) && boards.len() > 1 {
        return Err(one_board_only(format, &boards.len().to_string()));
    }
    for (i, board) in boards.iter().enumerate() {
        write_board(out, board, i, (format, colour)).context("cannot write the boards")?;
    }
    Ok(())
}

/// The error for more than one board in an SVG picture or a page: `there` says how many.
fn one_board_only(format: Format, there: &str) -> anyhow::Error {
    let what = if format == Format::Svg {
        "an SVG picture"
    } else {
        "a page"
    };
    bad_input(format!(
        "{what} holds one board, and there are {there}: ask for one, or use --format text"
    ))
}

/// Writes the board numbered `i` (from 0) of a stream of boards in a format.
fn write_board(
    out: &mut impl Write,
    board: &Board,
    i: usize,
    (format, colour): Style,
) -> io::Result<()> {
    let text = match format {
        Format::Text if i > 0 => format!("\n{}", board.to_text()),
        Format::Text => board.to_text(),
        Format::Json => format!("{}\n", board.to_json()),
        Format::Svg => svg::draw(board),
        Format::Board if i > 0 => format!("\n{}", drawn(board, colour)),
        Format::Board => drawn(board, colour),
        Format::Html => html::page(board),
    };
    out.write_all(text.as_bytes())
}

fn search<'a>(board: &'a Board, order_arg: OrderArg) -> Search<'a> {
    Search::new(board)
        .order(order(order_arg))
        .stop_when(signals::stop_flag())
}

fn interrupted(_: nqueens::region::Stopped) -> anyhow::Error {
    anyhow::anyhow!("interrupted")
}

fn solve(
    out: &mut impl Write,
    file: &Input,
    limit: Option<u64>,
    style: Style,
    order_arg: OrderArg,
) -> anyhow::Result<()> {
    let boards = read(file)?;
    // An SVG picture and a page hold one board: two solutions at most are kept, to refuse a
    // second before the first is written. Other formats write each solution as it is found,
    // so `--all` streams in bounded memory.
    let one_board = matches!(style.0, Format::Svg | Format::Html);
    let limit = if one_board {
        Some(limit.map_or(2, |l| l.min(2)))
    } else {
        limit
    };
    let mut held = Vec::new();
    let mut written = 0;
    let mut failed = None;
    let mut unsolved = 0;
    for board in &boards {
        let mut s = search(board, order_arg);
        if let Some(limit) = limit {
            s = s.limit(limit);
        }
        let counted = s.for_each(|columns| {
            let solved = board.with_solution(columns);
            if one_board {
                held.push(solved);
            } else if failed.is_none() {
                if let Err(e) = write_board(out, &solved, written, style) {
                    // The search has nowhere to put what it finds: stop it, as Ctrl-C would.
                    failed = Some(e);
                    signals::stop_flag().store(true, Ordering::Relaxed);
                }
                written += 1;
            }
        });
        if let Some(e) = failed {
            return Err(anyhow::Error::new(e).context("cannot write the boards"));
        }
        if one_board && held.len() > 1 {
            return Err(one_board_only(style.0, "at least 2"));
        }
        // Solutions found before an interrupt are written all the same.
        if counted.is_err() {
            write_boards(out, &held, style)?;
            return Err(interrupted(nqueens::region::Stopped));
        }
        if counted.is_ok_and(|c| c.solutions == 0) {
            unsolved += 1;
        }
    }
    write_boards(out, &held, style)?;
    if unsolved > 0 {
        anyhow::bail!("{unsolved} of {} puzzle(s) have no solution", boards.len());
    }
    Ok(())
}

fn count(
    out: &mut impl Write,
    file: &Input,
    limit: Option<u64>,
    order_arg: OrderArg,
) -> anyhow::Result<()> {
    for board in read(file)? {
        let mut s = search(&board, order_arg);
        if let Some(limit) = limit {
            s = s.limit(limit);
        }
        let counted = s.count().map_err(interrupted)?;
        let more = if counted.limited { " or more" } else { "" };
        writeln!(out, "{}{more}", counted.solutions)
            .and_then(|()| out.flush())
            .context("cannot write the counts")?;
    }
    Ok(())
}

fn verify_all(out: &mut impl Write, file: &Input) -> anyhow::Result<()> {
    let boards = read(file)?;
    let mut invalid = 0;
    for board in &boards {
        let line = match verify(board, board.queens()) {
            Ok(()) => "ok".to_string(),
            Err(broken) => {
                invalid += 1;
                format!("invalid: {broken}")
            }
        };
        writeln!(out, "{line}").context("cannot write the results")?;
    }
    if invalid > 0 {
        anyhow::bail!("{invalid} of {} placement(s) break a rule", boards.len());
    }
    Ok(())
}

/// The rules used, as `around 8, last-cell 8, ...` (those used only).
fn uses(rating: &Rating) -> String {
    rating
        .uses()
        .iter()
        .filter(|(_, k)| *k > 0)
        .map(|(rule, k)| format!("{} {k}", rule.name()))
        .collect::<Vec<_>>()
        .join(", ")
}

fn step_line(step: &Step) -> String {
    format!("{}: {}", step.rule.name(), step.reason)
}

fn rate_all(
    out: &mut impl Write,
    file: &Input,
    steps: bool,
    want_hint: bool,
    json: bool,
) -> anyhow::Result<()> {
    let boards = read(file)?;
    let mut stuck = 0;
    for board in &boards {
        let text = if want_hint {
            let next = hint(board);
            if next.is_err() {
                stuck += 1;
            }
            if json {
                let value = match &next {
                    Ok(step) => serde_json::json!({ "step": step }),
                    Err(why) => serde_json::json!({ "stuck": why }),
                };
                format!("{value}\n")
            } else {
                match next {
                    Ok(Some(step)) => format!("{}\n", step_line(&step)),
                    Ok(None) => "solved\n".to_string(),
                    Err(why) => format!("stuck: {why}\n"),
                }
            }
        } else {
            let rating = rate(board);
            if json {
                format!("{}\n", serde_json::to_string(&rating)?)
            } else {
                let mut text = format!(
                    "{} ({} steps: {})\n",
                    rating.difficulty,
                    rating.steps.len(),
                    uses(&rating)
                );
                if steps {
                    for (i, step) in rating.steps.iter().enumerate() {
                        text.push_str(&format!("  {}. {}\n", i + 1, step_line(step)));
                    }
                    if let Some(why) = &rating.stuck {
                        text.push_str(&format!("  stuck: {why}\n"));
                    }
                }
                text
            }
        };
        out.write_all(text.as_bytes())
            .context("cannot write the ratings")?;
    }
    if want_hint && stuck > 0 {
        anyhow::bail!(
            "no rule gives a next step for {stuck} of {} board(s)",
            boards.len()
        );
    }
    Ok(())
}

fn generate(
    out: &mut impl Write,
    n: u64,
    count: u64,
    seed: Option<u64>,
    difficulty: Option<Difficulty>,
    (format, colour): Style,
    threads: Option<u64>,
) -> anyhow::Result<()> {
    let n = usize::try_from(n).unwrap_or(usize::MAX);
    let generator = Generator::new(n).map_err(bad_input)?;
    if matches!(format, Format::Svg | Format::Html) && count > 1 {
        let what = if format == Format::Svg {
            "an SVG picture"
        } else {
            "a page"
        };
        return Err(bad_input(format!(
            "{what} holds one puzzle: use --count 1, or --format text"
        )));
    }
    let seed = seed.unwrap_or_else(|| {
        let seed = rand::rngs::OsRng.next_u64();
        eprintln!("seed: {seed}");
        seed
    });
    let mut generator = generator
        .seed(seed)
        .difficulty(difficulty)
        .stop_when(signals::stop_flag());
    if let Some(threads) = threads {
        generator = generator.threads(threads as usize);
    }
    for (number, puzzle) in (1..).zip(generator.puzzles(count)) {
        let puzzle = match puzzle {
            Ok(p) => p,
            Err(GenerateError::Stopped) => {
                anyhow::bail!("interrupted after {} puzzle(s)", number - 1)
            }
            Err(e) => return Err(e.into()),
        };
        let text = written(&puzzle, number, (format, colour));
        // Each puzzle is out before the next is made: a long run streams.
        match out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
            Err(e) if e.kind() == io::ErrorKind::BrokenPipe => return Ok(()),
            other => other.context("cannot write the puzzles")?,
        }
    }
    Ok(())
}

/// One generated puzzle in a format.
fn written(puzzle: &Puzzle, number: u64, (format, colour): Style) -> String {
    let columns = puzzle
        .solution
        .iter()
        .map(|c| (c + 1).to_string())
        .collect::<Vec<_>>()
        .join(" ");
    let rating = &puzzle.rating;
    match format {
        Format::Text | Format::Board => {
            let drawing = if format == Format::Text {
                puzzle.board.to_text()
            } else {
                drawn(&puzzle.board, colour)
            };
            format!(
                "# region puzzle {number}: N={}, {} ({} steps: {})\n{drawing}# solution: {columns}\n\n",
                puzzle.board.n(),
                rating.difficulty,
                rating.steps.len(),
                uses(rating),
            )
        }
        Format::Json => {
            let mut value = puzzle.board.to_json_value();
            value["solution"] = puzzle.solution.iter().map(|c| c + 1).collect();
            value["difficulty"] = rating.difficulty.name().into();
            value["steps"] = rating.steps.len().into();
            value["uses"] = rating
                .uses()
                .iter()
                .map(|(rule, k)| (rule.name().to_string(), serde_json::Value::from(*k)))
                .collect::<serde_json::Map<_, _>>()
                .into();
            format!("{value}\n")
        }
        Format::Svg => svg::draw(&puzzle.board),
        Format::Html => html::page(&puzzle.board),
    }
}
