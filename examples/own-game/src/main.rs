//! Registers three in a row on a strip, then solves it, shows the moves from the start
//! and from a later position, and plays perfect against random.

use std::error::Error;

use zermelo::catalog;
use zermelo::session::{Options, PositionView};

/// The strip shown.
const SPEC: &str = "strip:cells=7";
/// Games of the tournament.
const GAMES: u64 = 20;

fn main() -> Result<(), Box<dyn Error>> {
    let entry = own_game::register()?;
    println!("{}: {}", entry.info.name, entry.info.summary);
    let session = catalog::open(SPEC)?;
    let opts = Options {
        data_dir: std::env::temp_dir().join("zermelo-own-game"),
        ..Options::default()
    };

    let solved = session.solve(&opts)?;
    let value = solved.verdict.value.map_or("unknown", |c| c.word());
    println!("\n{SPEC} is a {value} for {}, the first to mark", solved.to_move);
    println!("({} positions, by {})", solved.positions, solved.solver);

    show(&session.position(&[], &opts)?);
    // X marks 3, O marks 7, X marks 4: X threatens both ends of its pair.
    let moves = ["3", "7", "4"].map(String::from);
    show(&session.position(&moves, &opts)?);

    let players = ["perfect", "random"].map(String::from);
    let standings = session.tournament(&players, GAMES, 1, &opts, &|_| {})?;
    println!("\n{GAMES} games, each seat taken equally often:");
    println!("{:<8} {:>4} {:>5} {:>6}", "player", "wins", "draws", "losses");
    for row in &standings.players {
        println!(
            "{:<8} {:>4} {:>5} {:>6}",
            row.player, row.wins, row.draws, row.losses
        );
    }
    Ok(())
}

/// Prints the position, its value and every move's.
fn show(view: &PositionView) {
    println!(
        "\n{}{} to move: {}",
        view.board,
        view.to_move,
        view.verdict.words()
    );
    for m in &view.moves {
        let best = if m.best { "  (best)" } else { "" };
        println!("  mark {:>2}: {}{best}", m.notation, m.verdict.words());
    }
}
