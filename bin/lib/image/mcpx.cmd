@echo off
rem mcpx in a self-contained runtime image (made by bin/package): runs on the image's own java.
rem MCPX_AOT=0 turns the AOT cache off; MCPX_JAVA_OPTS adds JVM options.
setlocal
set "MCPX_HOME=%~dp0.."
set "MCPX_APP=%MCPX_HOME%\lib\mcpx"
set "MCPX_AOT_OPTS="
if not "%MCPX_AOT%"=="0" if exist "%MCPX_APP%\mcpx.aot" set "MCPX_AOT_OPTS="-XX:AOTCache=%MCPX_APP%\mcpx.aot" -XX:+UnlockDiagnosticVMOptions -XX:ArchiveRelocationMode=0 -Xlog:disable -Xlog:all=warning:stderr"
"%MCPX_HOME%\bin\java.exe" %MCPX_AOT_OPTS% %MCPX_JAVA_OPTS% "-Dmcpx.launcher=%~f0" -cp "%MCPX_APP%\mcpx.jar" dev.mcpx.cli.Main %*
exit /b %ERRORLEVEL%
