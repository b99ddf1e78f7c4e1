//! rmcp 3.11's task runtime alone, without elicit: the behaviours that `Tasks` works around or
//! that asks inside tasks must meet (see the `Tasks` docs). Each test fails once rmcp changes
//! the behaviour, which says the workaround can go.

use std::time::Duration;

use rmcp::model::{
    CallToolResult, ContentBlock, DetailedTask, InputRequest, TaskPayload, TaskStatus,
};
use rmcp::task_manager::{TaskExit, TaskManager, TaskOptions};
use serde_json::{Value, json};

fn form_request() -> InputRequest {
    serde_json::from_value(json!({
        "method": "elicitation/create",
        "params": {"message": "Name?", "requestedSchema": {"type": "object", "properties": {}}}
    }))
    .expect("an elicitation request")
}

fn done() -> Result<CallToolResult, TaskExit> {
    Ok(CallToolResult::success(vec![ContentBlock::text("done")]))
}

fn explode() -> Result<CallToolResult, TaskExit> {
    panic!("boom")
}

/// The task once it has reached `status` (at most 5 s).
async fn reached(manager: &TaskManager, task: &str, status: TaskStatus) -> DetailedTask {
    for _ in 0..500 {
        let got = manager.get_task(task).expect("the task exists");
        if got.status() == status {
            return got;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    panic!("task {task} never reached {status:?}")
}

#[tokio::test]
async fn a_panicking_operation_stays_working_in_rmcp_alone() {
    let manager = TaskManager::new();
    let task = manager.spawn(TaskOptions::default(), |_| Box::pin(async { explode() }));
    tokio::time::sleep(Duration::from_millis(300)).await;
    // Working, for the rest of its TTL (5 minutes by default); `Tasks` fails it at once.
    let got = manager.get_task(&task.task_id).unwrap();
    assert_eq!(got.status(), TaskStatus::Working);
    manager.shutdown();
}

#[tokio::test]
async fn a_dropped_request_input_stays_pending_until_an_update_removes_it() {
    let manager = TaskManager::new();
    let task = manager.spawn(TaskOptions::default(), |context| {
        Box::pin(async move {
            // The operation stops waiting (a timeout, a select): the request stays listed.
            let waiting = context.request_input("name", form_request());
            let _ = tokio::time::timeout(Duration::from_millis(20), waiting).await;
            tokio::time::sleep(Duration::from_secs(60)).await;
            done()
        })
    });
    let id = task.task_id;
    tokio::time::sleep(Duration::from_millis(200)).await;
    let got = reached(&manager, &id, TaskStatus::InputRequired).await;
    match got.payload {
        TaskPayload::InputRequired { input_requests } => {
            assert!(input_requests.contains_key("name"));
        }
        other => panic!("expected input_required, got {other:?}"),
    }
    // The way out through the public API: an update for the key, which nothing receives.
    manager
        .update_task(&id, [("name".to_owned(), Value::Null)])
        .unwrap();
    assert_eq!(manager.get_task(&id).unwrap().status(), TaskStatus::Working);
    manager.shutdown();
}

#[tokio::test]
async fn a_key_is_refused_the_second_time_in_one_task() {
    let manager = TaskManager::new();
    let (sender, outcome) = tokio::sync::oneshot::channel();
    let task = manager.spawn(TaskOptions::default(), |context| {
        Box::pin(async move {
            let first = context.request_input("k", form_request()).await.is_ok();
            let second = match context.request_input("k", form_request()).await {
                Ok(_) => "answered".to_owned(),
                Err(TaskExit::Cancelled) => "cancelled".to_owned(),
                Err(TaskExit::Error(error)) => error.message.into_owned(),
            };
            let _ = sender.send((first, second));
            done()
        })
    });
    reached(&manager, &task.task_id, TaskStatus::InputRequired).await;
    let answer = json!({"action": "accept", "content": {}});
    manager
        .update_task(&task.task_id, [("k".to_owned(), answer)])
        .unwrap();
    let (first, second) = tokio::time::timeout(Duration::from_secs(5), outcome)
        .await
        .expect("the operation went on")
        .expect("the operation reported");
    assert!(first);
    assert_eq!(
        second,
        "inputRequests key \"k\" was already used for this task"
    );
}
