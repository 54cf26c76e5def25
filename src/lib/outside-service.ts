// How the API says that a call failed because an outside service it needed (the player service, the OptiFine cape
// server, the images API) failed or could not be reached: that status, with an `{error}` naming the service.

/** The status of an answer that failed because an outside service failed or could not be reached. */
export const OUTSIDE_SERVICE_FAILED_STATUS = 502;
