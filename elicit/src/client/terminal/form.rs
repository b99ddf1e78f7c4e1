//! Form mode: one inquire prompt per property, each answer checked by the crate's validator on
//! a schema of that property alone, and the whole content by `accept_form` before it is sent.

use std::fmt;
use std::str::FromStr;

use inquire::error::CustomUserError;
use inquire::list_option::ListOption;
use inquire::validator::Validation;
use inquire::{CustomType, MultiSelect, Select, Text};
use serde_json::{Map, Value};

use super::{Stop, TerminalError, stopped, style};
use crate::client::ServerIdentity;
use crate::client::accept_form;
use crate::client::answer::{
    self, Choice, choices_of, count_rule, empty_selection, has_no_choices, item_bounds, label_of,
    number_rules, number_value, picked_value, string_rules, text_value, unanswerable,
};
use crate::schema::{
    NumberSchema, NumberType, PrimitiveSchema, Property, RequestedSchema, StringSchema,
};
use crate::wire::ElicitResult;

pub(super) fn render(
    server: &ServerIdentity,
    message: &str,
    schema: &RequestedSchema,
) -> Result<ElicitResult, TerminalError> {
    fill(server, message, schema).or_else(stopped)
}

const SEND: &str = "Send";
const CHANGE: &str = "Change an answer";
const DECLINE: &str = "Decline";
const CANCEL: &str = "Cancel";

fn fill(
    server: &ServerIdentity,
    message: &str,
    schema: &RequestedSchema,
) -> Result<ElicitResult, Stop> {
    introduce(server, message, schema);
    let blockers: Vec<String> = schema
        .properties()
        .iter()
        .filter_map(unanswerable)
        .collect();
    if !blockers.is_empty() {
        // Offering to fill it in would lead to a field nobody can answer.
        eprintln!("{}", style::warning("This form cannot be filled in:"));
        for blocker in &blockers {
            eprintln!("  {blocker}");
        }
        return match choose("Answer this form?", &[DECLINE, CANCEL])? {
            0 => Ok(ElicitResult::decline()),
            _ => Ok(ElicitResult::cancel()),
        };
    }
    if !schema.properties().is_empty() {
        match choose("Answer this form?", &["Fill in the form", DECLINE, CANCEL])? {
            0 => {}
            1 => return Ok(ElicitResult::decline()),
            _ => return Ok(ElicitResult::cancel()),
        }
    }
    let mut content = Map::new();
    for property in schema.properties() {
        ask(property, &mut content)?;
    }
    // The spec's review: every answer shown back, any of them changed, before anything is sent.
    let ending: &[&'static str] = if schema.properties().is_empty() {
        &[SEND, DECLINE, CANCEL]
    } else {
        &[SEND, CHANGE, DECLINE, CANCEL]
    };
    loop {
        review(server, schema, &content);
        match ending[choose("Send your answers?", ending)?] {
            SEND => {}
            CHANGE => {
                if let Some(property) = pick_answer(schema, &content)? {
                    ask(property, &mut content)?;
                }
                continue;
            }
            DECLINE => return Ok(ElicitResult::decline()),
            _ => return Ok(ElicitResult::cancel()),
        }
        // The fields were checked one by one; this adds the defaults of fields left empty and
        // checks the whole, so a default that breaks its own schema is caught too.
        match accept_form(schema, content.clone()) {
            Ok(result) => return Ok(result),
            Err(errors) => {
                eprintln!("{}", style::warning("The form cannot be sent yet:"));
                for error in errors.errors() {
                    let label = schema
                        .property(error.field())
                        .map_or(error.field(), label_of);
                    eprintln!("  {} {}", label, error.message());
                }
                for property in errors
                    .errors()
                    .iter()
                    .filter_map(|error| schema.property(error.field()))
                {
                    ask(property, &mut content)?;
                }
            }
        }
    }
}

/// Who asks, the server's message, the form's own title and description if it has them, and
/// how the form works.
fn introduce(server: &ServerIdentity, message: &str, schema: &RequestedSchema) {
    eprintln!(
        "{}",
        style::server(format!("Form from the server {server}"))
    );
    eprintln!("{}", style::heading(message));
    if let Some(title) = &schema.title {
        eprintln!("{}", style::heading(title));
    }
    if let Some(description) = &schema.description {
        eprintln!("{description}");
    }
    let required = if schema.required().next().is_some() {
        "Fields marked * are required. "
    } else {
        ""
    };
    eprintln!(
        "{}",
        style::dim(format!(
            "{required}You review your answers before they are sent. \
             Esc or Ctrl-C cancels the whole form."
        ))
    );
}

/// Every answer as it will be sent, under the name of the server it goes to.
fn review(server: &ServerIdentity, schema: &RequestedSchema, content: &Map<String, Value>) {
    eprintln!(
        "{}",
        style::heading(format!("Your answers, for the server {server}:"))
    );
    for property in schema.properties() {
        eprintln!(
            "  {}: {}",
            label_of(property),
            answer::shown(property, content.get(&*property.name))
        );
    }
}

/// The answer the user wants to change, or `None` to go back to the review.
fn pick_answer<'s>(
    schema: &'s RequestedSchema,
    content: &Map<String, Value>,
) -> Result<Option<&'s Property>, Stop> {
    let mut entries: Vec<String> = schema
        .properties()
        .iter()
        .map(|property| {
            format!(
                "{}: {}",
                label_of(property),
                answer::shown(property, content.get(&*property.name))
            )
        })
        .collect();
    entries.push("(back to the review)".to_owned());
    let picked = Select::new("Which answer do you change?", entries)
        .without_filtering()
        .with_help_message("↑↓ to move, enter to pick")
        .raw_prompt()?;
    Ok(schema.properties().get(picked.index))
}

/// One of `choices`, by index.
fn choose(question: &str, choices: &[&'static str]) -> Result<usize, Stop> {
    let picked = Select::new(question, choices.to_vec())
        .without_filtering()
        .with_help_message("↑↓ to move, enter to pick")
        .raw_prompt()?;
    Ok(picked.index)
}

/// Asks one property, starting from its current answer or else its default, and records the
/// answer (or its absence) in `content`.
fn ask(property: &Property, content: &mut Map<String, Value>) -> Result<(), Stop> {
    let field = Field::new(property, content.get(&*property.name).cloned());
    let no_choices = has_no_choices(property);
    let answer = match &property.schema {
        // Nothing to pick from (and `unanswerable` found that acceptable): no prompt.
        _ if no_choices => {
            eprintln!(
                "{}",
                style::dim(format!("{} offers no choices.", label_of(property)))
            );
            empty_selection(property)
        }
        PrimitiveSchema::String(schema) => field.text(schema)?,
        PrimitiveSchema::Number(schema) => field.number(schema)?,
        PrimitiveSchema::Boolean(_) => field.yes_no()?,
        PrimitiveSchema::SingleSelect(_)
        | PrimitiveSchema::TitledSingleSelect(_)
        | PrimitiveSchema::LegacyTitled(_) => field.single_select()?,
        PrimitiveSchema::MultiSelect(_) | PrimitiveSchema::TitledMultiSelect(_) => {
            field.multi_select()?
        }
    };
    match answer {
        Some(value) => content.insert(property.name.to_string(), value),
        None => content.remove(&*property.name),
    };
    Ok(())
}

/// One property being asked: its prompt label, its help line, the value to start from, and a
/// schema of this property alone for the shared validator.
struct Field<'p> {
    property: &'p Property,
    /// The title (or name), `*` after it when required.
    prompt: String,
    alone: RequestedSchema,
    start: Option<Value>,
}

impl<'p> Field<'p> {
    fn new(property: &'p Property, current: Option<Value>) -> Self {
        let label = label_of(property);
        Field {
            property,
            prompt: if property.required {
                format!("{label} *")
            } else {
                label.to_owned()
            },
            alone: answer::alone(property),
            start: current.or_else(|| property.schema.default_value()),
        }
    }

    fn check(&self, value: Option<&Value>) -> Validation {
        check(&self.alone, value)
    }

    /// The verdict under a text prompt on what is typed so far (empty: left out).
    fn text_verdict(&self, input: &str) -> Validation {
        self.check(text_value(input).as_ref())
    }

    /// The verdict under a number prompt on what is typed so far: not a number, or the
    /// shared validator's on the number it reads as.
    fn number_verdict(&self, kind: NumberType, input: &str) -> Validation {
        match number_value(input, kind) {
            Ok(value) => self.check(value.as_ref()),
            Err(()) => Validation::Invalid(answer::not_a_number(self.property, kind, input).into()),
        }
    }

    /// The description, then what the field takes, as the help line under the prompt.
    fn help(&self, rules: Vec<String>) -> String {
        let mut parts: Vec<String> = self
            .property
            .schema
            .description()
            .map(str::to_owned)
            .into_iter()
            .collect();
        parts.extend(rules);
        parts.join(" · ")
    }

    /// Said of optional fields without a default: those with one take it when left empty.
    fn empty_allowed(&self) -> Option<String> {
        (!self.property.required && self.property.schema.default_value().is_none())
            .then(|| "Enter on an empty field leaves it out".to_owned())
    }

    fn text(&self, schema: &StringSchema) -> Result<Option<Value>, Stop> {
        let help = self.help(
            string_rules(schema)
                .into_iter()
                .chain(self.empty_allowed())
                .collect(),
        );
        let validator =
            |input: &str| -> Result<Validation, CustomUserError> { Ok(self.text_verdict(input)) };
        let start = self.start.as_ref().and_then(Value::as_str);
        let mut prompt = Text::new(&self.prompt)
            .with_help_message(&help)
            .with_validator(validator);
        if let Some(start) = start {
            prompt = prompt.with_initial_value(start);
        }
        Ok(text_value(&prompt.prompt()?))
    }

    fn number(&self, schema: &NumberSchema) -> Result<Option<Value>, Stop> {
        let help = self.help(
            number_rules(schema)
                .into_iter()
                .chain(self.empty_allowed())
                .collect(),
        );
        let validator = |input: &str| -> Result<Validation, CustomUserError> {
            Ok(self.number_verdict(schema.kind, input))
        };
        let start = self.start.as_ref().map(Value::to_string);
        let mut prompt = Text::new(&self.prompt)
            .with_help_message(&help)
            .with_validator(validator);
        if let Some(start) = &start {
            prompt = prompt.with_initial_value(start);
        }
        let input = prompt.prompt()?;
        // The validator passed this very input, so it parses.
        Ok(number_value(&input, schema.kind).unwrap_or_default())
    }

    fn yes_no(&self) -> Result<Option<Value>, Stop> {
        let required = self.property.required;
        let help = self.help(
            vec!["y for yes, n for no".to_owned()]
                .into_iter()
                .chain(self.empty_allowed())
                .collect(),
        );
        let parser = |input: &str| yes_no(required, input);
        let format_default = |answer: YesNo| match answer.0 {
            Some(true) => "Y/n".to_owned(),
            Some(false) => "y/N".to_owned(),
            None => "y/n".to_owned(),
        };
        let mut prompt = CustomType::<YesNo>::new(&self.prompt)
            .with_parser(&parser)
            .with_default_value_formatter(&format_default)
            .with_error_message("Type y for yes or n for no")
            .with_help_message(&help);
        match self.start.as_ref().and_then(Value::as_bool) {
            Some(start) => prompt = prompt.with_default(YesNo(Some(start))),
            None => prompt = prompt.with_placeholder("y/n"),
        }
        Ok(prompt.prompt()?.0.map(Value::Bool))
    }

    fn single_select(&self) -> Result<Option<Value>, Stop> {
        let mut choices = choices_of(&self.property.schema);
        if !self.property.required {
            choices.insert(0, Choice::leave_empty());
        }
        let start = self.start.as_ref().and_then(Value::as_str);
        let cursor = choices
            .iter()
            .position(|choice| choice.value.as_deref() == start)
            .unwrap_or(0);
        let help = self.help(vec!["↑↓ to move, enter to pick, type to filter".to_owned()]);
        let picked = Select::new(&self.prompt, choices)
            .with_starting_cursor(cursor)
            .with_help_message(&help)
            .prompt()?;
        Ok(picked.value.map(Value::String))
    }

    fn multi_select(&self) -> Result<Option<Value>, Stop> {
        let (min_items, max_items) = item_bounds(&self.property.schema);
        let choices = choices_of(&self.property.schema);
        let ticked: Vec<usize> = match &self.start {
            Some(Value::Array(items)) => choices
                .iter()
                .enumerate()
                .filter(|(_, choice)| {
                    items
                        .iter()
                        .any(|item| item.as_str() == choice.value.as_deref())
                })
                .map(|(index, _)| index)
                .collect(),
            _ => Vec::new(),
        };
        let mut rules = vec!["↑↓ to move, space to tick, → all, ← none, type to filter".to_owned()];
        rules.extend(count_rule(min_items, max_items));
        rules.extend(
            self.empty_allowed()
                .map(|_| "nothing ticked leaves it out".to_owned()),
        );
        let help = self.help(rules);
        // inquire keeps a multi-select's validator for 'static: it gets its own copy.
        let alone = self.alone.clone();
        let required = self.property.required;
        let validator = move |picked: &[ListOption<&Choice>]| {
            let values = picked.iter().map(|option| option.value);
            Ok::<_, CustomUserError>(selection_verdict(&alone, required, values))
        };
        let picked = MultiSelect::new(&self.prompt, choices.clone())
            .with_default(&ticked)
            .with_help_message(&help)
            .with_validator(validator)
            .prompt()?;
        Ok(picked_value(self.property.required, &picked))
    }
}

/// The verdict under a multi-select on the choices ticked so far (none: left out when
/// optional).
fn selection_verdict<'c>(
    alone: &RequestedSchema,
    required: bool,
    picked: impl IntoIterator<Item = &'c Choice>,
) -> Validation {
    check(alone, picked_value(required, picked).as_ref())
}

/// A yes/no prompt's reading of its input: a required one takes no empty answer.
fn yes_no(required: bool, input: &str) -> Result<YesNo, ()> {
    match input.parse::<YesNo>() {
        Ok(YesNo(None)) if required => Err(()),
        other => other,
    }
}

/// The crate's verdict on the value of the one property of `alone` (`None`: left empty), as
/// the line to show with the prompt.
fn check(alone: &RequestedSchema, value: Option<&Value>) -> Validation {
    match answer::verdict(alone, value) {
        Ok(()) => Validation::Valid,
        Err(reason) => Validation::Invalid(reason.into()),
    }
}

/// A yes/no answer that may be left empty: `y`, `yes`, `n`, `no` (any case), or nothing.
#[derive(Clone, Copy, Debug)]
struct YesNo(Option<bool>);

impl FromStr for YesNo {
    type Err = ();

    fn from_str(input: &str) -> Result<Self, ()> {
        match input.trim().to_ascii_lowercase().as_str() {
            "y" | "yes" => Ok(YesNo(Some(true))),
            "n" | "no" => Ok(YesNo(Some(false))),
            "" => Ok(YesNo(None)),
            _ => Err(()),
        }
    }
}

impl fmt::Display for YesNo {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self.0 {
            Some(true) => "Yes",
            Some(false) => "No",
            None => "(left empty)",
        })
    }
}

#[cfg(test)]
mod differential;
