//! What every test server that runs tools as tasks writes alike in its `ServerHandler`: tools
//! and tasks declared, and `tasks/get|update|cancel` answered by its `elicit_mcp::rmcp::Tasks`.

/// The `ServerHandler` of a test server `$server` whose field `tool_router` routes its tools
/// and whose field `$tasks` is its `Tasks`.
macro_rules! task_server_handler {
    ($server:ty, $tasks:ident) => {
        #[::rmcp::tool_handler(router = self.tool_router)]
        impl ::rmcp::ServerHandler for $server {
            fn get_info(&self) -> ::rmcp::model::ServerConfig {
                ::rmcp::model::ServerConfig::new(
                    ::rmcp::model::ServerCapabilities::builder()
                        .enable_tools()
                        .enable_tasks()
                        .build(),
                )
            }

            async fn get_task(
                &self,
                request: ::rmcp::model::GetTaskParams,
                _: ::rmcp::service::RequestContext<::rmcp::service::RoleServer>,
            ) -> ::std::result::Result<::rmcp::model::GetTaskResult, ::rmcp::ErrorData> {
                self.$tasks.get(&request)
            }

            async fn update_task(
                &self,
                request: ::rmcp::model::UpdateTaskParams,
                _: ::rmcp::service::RequestContext<::rmcp::service::RoleServer>,
            ) -> ::std::result::Result<(), ::rmcp::ErrorData> {
                self.$tasks.update(request)
            }

            async fn cancel_task(
                &self,
                request: ::rmcp::model::CancelTaskParams,
                _: ::rmcp::service::RequestContext<::rmcp::service::RoleServer>,
            ) -> ::std::result::Result<(), ::rmcp::ErrorData> {
                self.$tasks.cancel(&request)
            }
        }
    };
}

pub(crate) use task_server_handler;
