// Generated from tests/golden/tools/*.json by tests/js/sdk-types.test.mjs; do not edit
// (UPDATE_GOLDEN=1 node --test tests/js/sdk-types.test.mjs rewrites it). `as const` keeps the
// literal types ('function', 'object') that the SDKs' tool types ask for.

// openai-responses
export const openaiResponses = [
  {
    "type": "function",
    "name": "transfer_to_billing",
    "description": "Billing questions the rules did not catch",
    "parameters": {
      "type": "object",
      "properties": {
        "reason": {
          "type": [
            "string",
            "null"
          ],
          "description": "Why the conversation should go to Billing (optional)."
        },
        "accountId": {
          "type": "string",
          "description": "The account number, e.g. AC-1234"
        }
      },
      "required": [
        "reason",
        "accountId"
      ],
      "additionalProperties": false
    },
    "strict": true
  },
  {
    "type": "function",
    "name": "transfer_to_human",
    "description": "The user needs a human",
    "parameters": {
      "type": "object",
      "properties": {
        "reason": {
          "type": [
            "string",
            "null"
          ],
          "description": "Why the conversation should go to Human operator (optional)."
        },
        "urgency": {
          "type": "integer",
          "description": "1 (low) to 5 (urgent)"
        },
        "callback": {
          "type": "boolean"
        },
        "budget": {
          "type": "number"
        }
      },
      "required": [
        "reason",
        "urgency",
        "callback",
        "budget"
      ],
      "additionalProperties": false
    },
    "strict": true
  },
  {
    "type": "function",
    "name": "hand_to_spanish_desk",
    "description": "Hand the conversation over to Spanish desk.",
    "parameters": {
      "type": "object",
      "properties": {
        "reason": {
          "type": [
            "string",
            "null"
          ],
          "description": "Why the conversation should go to Spanish desk (optional)."
        }
      },
      "required": [
        "reason"
      ],
      "additionalProperties": false
    },
    "strict": true
  }
] as const;

// openai-chat
export const openaiChat = [
  {
    "type": "function",
    "function": {
      "name": "transfer_to_billing",
      "description": "Billing questions the rules did not catch",
      "parameters": {
        "type": "object",
        "properties": {
          "reason": {
            "type": [
              "string",
              "null"
            ],
            "description": "Why the conversation should go to Billing (optional)."
          },
          "accountId": {
            "type": "string",
            "description": "The account number, e.g. AC-1234"
          }
        },
        "required": [
          "reason",
          "accountId"
        ],
        "additionalProperties": false
      },
      "strict": true
    }
  },
  {
    "type": "function",
    "function": {
      "name": "transfer_to_human",
      "description": "The user needs a human",
      "parameters": {
        "type": "object",
        "properties": {
          "reason": {
            "type": [
              "string",
              "null"
            ],
            "description": "Why the conversation should go to Human operator (optional)."
          },
          "urgency": {
            "type": "integer",
            "description": "1 (low) to 5 (urgent)"
          },
          "callback": {
            "type": "boolean"
          },
          "budget": {
            "type": "number"
          }
        },
        "required": [
          "reason",
          "urgency",
          "callback",
          "budget"
        ],
        "additionalProperties": false
      },
      "strict": true
    }
  },
  {
    "type": "function",
    "function": {
      "name": "hand_to_spanish_desk",
      "description": "Hand the conversation over to Spanish desk.",
      "parameters": {
        "type": "object",
        "properties": {
          "reason": {
            "type": [
              "string",
              "null"
            ],
            "description": "Why the conversation should go to Spanish desk (optional)."
          }
        },
        "required": [
          "reason"
        ],
        "additionalProperties": false
      },
      "strict": true
    }
  }
] as const;

// anthropic
export const anthropic = [
  {
    "name": "transfer_to_billing",
    "description": "Billing questions the rules did not catch",
    "input_schema": {
      "type": "object",
      "properties": {
        "reason": {
          "type": [
            "string",
            "null"
          ],
          "description": "Why the conversation should go to Billing (optional)."
        },
        "accountId": {
          "type": "string",
          "description": "The account number, e.g. AC-1234"
        }
      },
      "required": [
        "reason",
        "accountId"
      ],
      "additionalProperties": false
    }
  },
  {
    "name": "transfer_to_human",
    "description": "The user needs a human",
    "input_schema": {
      "type": "object",
      "properties": {
        "reason": {
          "type": [
            "string",
            "null"
          ],
          "description": "Why the conversation should go to Human operator (optional)."
        },
        "urgency": {
          "type": "integer",
          "description": "1 (low) to 5 (urgent)"
        },
        "callback": {
          "type": "boolean"
        },
        "budget": {
          "type": "number"
        }
      },
      "required": [
        "reason",
        "urgency",
        "callback",
        "budget"
      ],
      "additionalProperties": false
    }
  },
  {
    "name": "hand_to_spanish_desk",
    "description": "Hand the conversation over to Spanish desk.",
    "input_schema": {
      "type": "object",
      "properties": {
        "reason": {
          "type": [
            "string",
            "null"
          ],
          "description": "Why the conversation should go to Spanish desk (optional)."
        }
      },
      "required": [
        "reason"
      ],
      "additionalProperties": false
    }
  }
] as const;

// ai-sdk
export const aiSdk = {
  "transfer_to_billing": {
    "description": "Billing questions the rules did not catch",
    "inputSchema": {
      "type": "object",
      "properties": {
        "reason": {
          "type": [
            "string",
            "null"
          ],
          "description": "Why the conversation should go to Billing (optional)."
        },
        "accountId": {
          "type": "string",
          "description": "The account number, e.g. AC-1234"
        }
      },
      "required": [
        "reason",
        "accountId"
      ],
      "additionalProperties": false
    },
    "strict": true
  },
  "transfer_to_human": {
    "description": "The user needs a human",
    "inputSchema": {
      "type": "object",
      "properties": {
        "reason": {
          "type": [
            "string",
            "null"
          ],
          "description": "Why the conversation should go to Human operator (optional)."
        },
        "urgency": {
          "type": "integer",
          "description": "1 (low) to 5 (urgent)"
        },
        "callback": {
          "type": "boolean"
        },
        "budget": {
          "type": "number"
        }
      },
      "required": [
        "reason",
        "urgency",
        "callback",
        "budget"
      ],
      "additionalProperties": false
    },
    "strict": true
  },
  "hand_to_spanish_desk": {
    "description": "Hand the conversation over to Spanish desk.",
    "inputSchema": {
      "type": "object",
      "properties": {
        "reason": {
          "type": [
            "string",
            "null"
          ],
          "description": "Why the conversation should go to Spanish desk (optional)."
        }
      },
      "required": [
        "reason"
      ],
      "additionalProperties": false
    },
    "strict": true
  }
} as const;
